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
/// that never lost anything it is placed half a recent delivery delay ahead, once the link has
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
      // A link that never lost anything needs no room for a resend. A delivery delay runs from
      // a frame leaving the wire to its acknowledgement: the board's handling, the answer's
      // way back and the host's wake-up; the start needs only the way there (its transmission
      // and the board's handling are in the guard and the packing: +Fitting). Half of it, as
      // clock sync takes half a round trip, covers a board slower than the guard assumes; a
      // whole one followed the emulated Uno's lag behind the wall clock (delivery delays up to
      // 8 ms) and put a play request's p99 at 9.9 ms; half: 4.2–5.7 ms (issue 28; 3× was
      // 3-20 ms more).
      let statistics = link.statistics
      let factor = Self.isLossy(statistics) ? Self.lookaheadPerDelivery : Self.cleanStartPerDelivery
      let lead = min(factor * expectedDelivery(statistics), Self.maximumStartLead)
      return Int((lead / framePeriod).rounded(.up))
    default: return 0
    }
  }

  /// Factor between the link's recent delivery delay and a start's lead on a link that never
  /// lost anything.
  static let cleanStartPerDelivery = 0.5

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
