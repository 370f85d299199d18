import HapticRenderer

/// The adaptive lookahead (docs/protocol.md §8): enough queued drive on the board to ride out
/// the link's recoveries from loss.
///
/// A refill goes out when the board holds half the lookahead plus the guard; it must arrive
/// before that runs out. The link measures how long acknowledgements took lately (from a frame
/// leaving the wire, recoveries included: a decaying maximum that rises at once and halves in
/// 10 s), so the lookahead is kept at 3× that delay — a refill has 1.5× the worst recent
/// delivery to arrive — between ``HapticEngine/Configuration/lookahead`` and
/// ``HapticEngine/Configuration/maximumLookahead``. Changes (parameters, stop, pause) keep their
/// latency: they replace queued drive from their frame, whatever the lookahead.
///
/// A start (or resume) begins new drive: on a link that has lost frames it is placed a lookahead's
/// worth (3× the recent delivery delay, at most ``maximumStartLead``) ahead, so a lost frame is
/// resent before the onset and the board does not skip the pattern's first moments. On a link
/// that never lost anything it is placed one recent delivery delay ahead, once the link has
/// carried enough to tell (``BoardLinkStatistics/isProven``); an unproven link counts as lossy,
/// for the start and the lookahead alike (the lookahead sends the start's drive at once, so a
/// lost batch has the whole lead to be resent).
extension HapticEngine {
  /// The longest a start waits for the link, seconds.
  static let maximumStartLead = 0.150

  /// Frames a start or resume made now should lie ahead for the link to deliver it on time
  /// (0 for other actions). Reads the link: call without the lock.
  func startLead(for action: TrackAction) -> Int {
    switch action {
    case .start, .resume:
      // A link that never lost anything needs no room for a resend: one recent delivery delay
      // (a message's transmission, the board's answer and the host's own delays as the link
      // saw them lately) is enough, and a play request then plays within a few milliseconds
      // (3× was 3-20 ms more: issue 28).
      let statistics = link.statistics
      let factor = Self.isLossy(statistics) ? Self.lookaheadPerDelivery : 1
      let lead = min(factor * expectedDelivery(statistics), Self.maximumStartLead)
      return Int((lead / framePeriod).rounded(.up))
    default: return 0
    }
  }

  /// Factor between the link's recent delivery delay and the lookahead.
  static let lookaheadPerDelivery = 3.0

  /// The delivery delay to plan for: the recent worst, and on a link that has lost anything
  /// yet (the handshake included), or is not yet proven, at least two retransmission timeouts (a lost frame whose
  /// resend is lost too) — a young estimate has not seen its worst, and a pattern growing
  /// denser meets more losses than the estimate saw.
  func expectedDelivery(_ statistics: BoardLinkStatistics) -> Double {
    Self.isLossy(statistics)
      ? max(statistics.deliveryDelay, Self.lossyDeliveryTimeouts * statistics.retransmitTimeout)
      : statistics.deliveryDelay
  }

  /// A link that lost frames, or has not carried enough yet to tell.
  static func isLossy(_ statistics: BoardLinkStatistics) -> Bool {
    statistics.recoveries > 0 || !statistics.isProven
  }

  /// Retransmission timeouts a delivery on a lossy link is planned to take at least.
  static let lossyDeliveryTimeouts = 2.0

  /// The lookahead (frames) the link's `statistics` call for. Call with the lock held.
  func lookahead(for statistics: BoardLinkStatistics) -> Int {
    let least = configuration.lookahead
    let most = max(configuration.maximumLookahead, least)
    let wanted = min(max(Self.lookaheadPerDelivery * expectedDelivery(statistics), least), most)
    return Int((wanted / framePeriod).rounded(.up))
  }
}
