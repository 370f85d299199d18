/// Timers (docs/protocol.md §4.3, §4.5): the poll that finds a lost frame or acknowledgement in
/// about one round trip, and the retransmission timeout behind it.
extension ReliableLink {
  /// How long after the newest frame in flight left the wire a poll goes out: twice the
  /// smoothed round trip (once measured), at least ``Configuration/minimumPollTimeout``.
  public var pollTimeout: Double {
    max(2 * (timer.smoothedRTT ?? 0), configuration.minimumPollTimeout)
  }

  /// When ``poll(now:)`` next has work (a poll or a retransmission), if anything is in flight.
  public var nextDeadline: Double? {
    guard let first = inFlight.first else { return nil }
    let retransmit = first.lastSent + timer.timeout
    guard let pollDue = nextPollDue else { return retransmit }
    return min(retransmit, pollDue)
  }

  /// When the next poll is due, if one may go out (only once the peer was heard from: before
  /// that no one would answer).
  private var nextPollDue: Double? {
    guard peerHeard, !peerHolding, let newest = inFlight.last(where: \.onWire),
      pollsUnanswered < configuration.maxPolls
    else { return nil }
    return max(newest.lastSent, lastPoll ?? -Double.infinity) + pollTimeout
  }

  /// Polls the peer or retransmits when a timer ran out; call at ``nextDeadline``.
  public mutating func poll(now: Double) -> Output {
    var output = Output()
    guard let first = inFlight.first else { return output }
    if now >= first.lastSent + timer.timeout {
      // Before the peer was ever heard nobody listened: no loss (its resends count apart).
      if peerHeard { statistics.timeouts += 1 }
      consecutiveTimeouts += 1
      peerHolding = false  // ask again: a lost "taking frames again" must not stall the link
      timer.backOff()
      congestionWindow = 1
      pollAnswersPending = 0  // a new round: answers still out are no longer counted on
      if consecutiveTimeouts >= configuration.maxTimeouts {
        output.events.append(.linkLost)
        consecutiveTimeouts = 0
      }
      output.bytes = retransmitAll(now: now)
      return output
    }
    if let due = nextPollDue, now >= due {
      // Ask for the peer's ack: its answer (a NAK when it is missing frames) recovers a lost
      // frame or a lost ack in one round trip instead of an RTO.
      statistics.polls += 1
      pollsUnanswered += 1
      pollsThisSession += 1
      pollAnswersPending = min(pollAnswersPending + 1, configuration.maxPolls)
      lastPoll = now
      output.bytes = ackFrame(.poll, seq: nextSeq, now: now)
      // Its answer acknowledges what is on the wire a poll timeout late: their samples run from
      // when the poll left (issue 31 point 3).
      let left = configuration.bytePeriod > 0 ? wireFreeAt : now
      for index in inFlight.indices where inFlight[index].onWire { inFlight[index].polledAt = left }
    }
    return output
  }

  /// Go-back-N: every frame in flight is to be sent again, in order, after a delimiter; the
  /// congestion window decides how many go now (the rest follow as acknowledgements come).
  /// `unanswered`: the frames were sent before the peer was ever heard (their resends count as
  /// ``Statistics/unansweredResends``).
  mutating func retransmitAll(now: Double, unanswered: Bool? = nil) -> [UInt8] {
    resendingUnanswered = unanswered ?? !peerHeard
    // A leading delimiter flushes any partial frame the peer may hold.
    var bytes: [UInt8] = [0]
    _ = departure(of: 1, now: now)
    // The resent frames get polls of their own (a timeout's backoff bounds them on a dead line).
    lastPoll = nil
    pollsUnanswered = 0
    // Every frame in flight is resent or held back behind the resends: none gives a sample
    // (a held-back frame's ack can come a recovery later; issue 31 point 3).
    for index in inFlight.indices {
      inFlight[index].onWire = false
      inFlight[index].sampleable = false
    }
    bytes += pump(now: now)
    // The frame the peer waits for goes twice, when the receive window has room for the copy:
    // on a lossy line a resend is lost as often as the original (40 % for a 50-byte frame at 1 %
    // byte loss), and each round costs a poll and a round trip; the peer drops the spare copy.
    if let first = inFlight.first, first.onWire,
      bytesOnWire + Self.sizeBound(first.frame.payload.count) <= configuration.receiveWindow
    {
      countResend()
      let copy = [0] + transmit(first.frame)
      _ = departure(of: copy.count, now: now)  // its wire time delays what follows
      bytes += copy
    }
    return bytes
  }
}
