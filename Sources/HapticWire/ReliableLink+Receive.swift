/// Receiving (docs/protocol.md §4.1–4.2, §4.5): sessions, in-order delivery, acknowledgements,
/// NAKs for gaps and answers to polls.
extension ReliableLink {
  /// Handles frames that arrived; returns deliveries, acknowledgements to write and events.
  public mutating func receive(_ frames: [WireFrame], now: Double) -> Output {
    var output = Output()
    var mustAck = false
    var gap = false
    var followsNone = false
    for frame in frames {
      guard frame.version == WireFrame.protocolVersion else {
        output.events.append(.versionMismatch(frame.version))
        continue
      }
      let startsSession = frame.flags.contains(.reliable) && frame.flags.contains(.syn)
      // Frames from a session other than the peer's current one are stale (or from a peer that
      // restarted and has not sent its SYN yet): ignore them, acks included — but answer a poll
      // with "I follow none of your sessions", so its sender resends its SYN at once.
      if !startsSession, let peerSession, frame.session != peerSession {
        if frame.type == WireMessage.Kind.ack.rawValue && frame.flags.contains(.poll) { followsNone = true }
        continue
      }
      peerHeard = true
      if frame.flags.contains(.ackValid) {
        processAck(frame, now: now, output: &output)
      } else if frame.flags.contains(.nak), frame.type == WireMessage.Kind.ack.rawValue {
        // The peer follows none of our sessions: our SYN was lost, or an ack the peer meant for
        // an earlier session on the port (another process's) was taken for ours — an ack does
        // not say which session it means. Start our session again: what the peer has not
        // acknowledged goes out renumbered from a new SYN.
        // Only one that answers a poll of this session: those before this session's first poll
        // answer the previous session's polls (the line keeps order), and acting on them would
        // start yet another session, the peer restarting its own for it.
        if pollsThisSession > 0 {
          statistics.fastRecoveries += 1
          // A peer that had followed this session and follows none now restarted (its reset
          // notice was lost): what is timed on its old clock is dropped as on a reset notice.
          let wasFollowed = sessionAcknowledged
          restartSending()
          if wasFollowed { dropStaleMessages() }
          output.bytes += [0] + pump(now: now)
        }
      }
      guard frame.flags.contains(.reliable) else {
        if frame.type != WireMessage.Kind.ack.rawValue {
          output.frames.append(frame)
        } else if frame.flags.contains(.poll) {
          // A poll: answer at once; behind the sender's next number means frames went missing,
          // and following none of its sessions means all of them did.
          if peerSession == frame.session, let expected {
            mustAck = true
            if Int8(bitPattern: frame.seq &- expected) > 0 { gap = true }
          } else {
            followsNone = true
          }
        }
        continue
      }
      mustAck = true
      if startsSession {
        if frame.session == peerSession, let expected, frame.seq == peerFirstSequence,
          Int(expected &- frame.seq) <= Self.protocolWindow
        {
          // A SYN of the session we already follow: a retransmission (or not yet delivered).
          if Int8(bitPattern: frame.seq &- expected) < 0 {
            statistics.duplicatesDropped += 1
            continue
          }
        } else {
          // First contact: what we sent before anyone listened (a board's reset notice, with
          // our SYN) goes out again now, not after a backed-off RTO (§4.1). Frames younger than
          // an RTO are on their way (a host's identify crossing the board's SYN).
          let firstContact = peerSession == nil && inFlight.first.map { now - $0.firstSent >= timer.timeout } == true
          if peerSession == frame.session && drawsSessions {
            // The board's id is its boot count: the same id is the same boot, so this is a new
            // session it started for ours (we restarted), not a reset — take its numbering,
            // report nothing, keep our session (§4.1).
            statistics.peerSessionRestarts += 1
          } else if peerSession != nil {
            output.events.append(.peerRestarted)
            restartSending()
            dropStaleMessages()
          }
          peerSession = frame.session
          peerFirstSequence = frame.seq
          expected = frame.seq
          if firstContact {
            timer.resetBackoff()
            consecutiveTimeouts = 0
            // Resent after taking the peer's session, so they carry ACK_VALID: we follow it
            // (as the Uno's R|A|SYN does; issue 31 point 5). Sent to no one before: not
            // retransmissions of a link that loses frames.
            output.bytes += retransmitAll(now: now, unanswered: true)
          }
        }
      }
      guard let current = expected else { continue }  // no session yet: wait for a SYN
      if frame.seq == current {
        expected = current &+ 1
        statistics.framesDelivered += 1
        output.frames.append(frame)
        gap = false  // a NAK must name what is missing after this batch, not before
      } else if Int8(bitPattern: frame.seq &- current) < 0 {
        statistics.duplicatesDropped += 1
      } else {
        statistics.outOfOrderDropped += 1
        gap = true
      }
    }
    if mustAck, expected != nil {
      if gap { statistics.naksSent += 1 }
      output.bytes += ackFrame(gap ? .nak : [], now: now)
    } else if followsNone {
      statistics.naksSent += 1
      // No ACK_VALID: "I follow none of your sessions".
      output.bytes += WireFrame(flags: .nak, session: session, seq: 0, ack: 0, type: WireMessage.Kind.ack.rawValue, payload: [])
        .encoded()
    }
    output.bytes += pump(now: now)
    return output
  }

  private mutating func processAck(_ frame: WireFrame, now: Double, output: inout Output) {
    guard let first = inFlight.first else { return }
    let ack = frame.ack
    let holds = frame.flags.contains(.hold) && frame.type == WireMessage.Kind.ack.rawValue
    let pureAck = frame.type == WireMessage.Kind.ack.rawValue && !frame.flags.contains(.reliable)
      && !frame.flags.contains(.poll)
    // Frames acknowledged: those before `ack` within the window.
    let acknowledged = Int(ack &- first.seq)
    if acknowledged > 0 && acknowledged <= inFlight.count {
      let newest = inFlight[acknowledged - 1]
      // Karn's rule: only frames sent once and not held back by a go-back-N give samples, timed
      // from the latest poll about them if one went; a backed-off RTO stays until one does
      // (RFC 6298 §5.7).
      if newest.sampleable { timer.sample(max(now - max(newest.firstSent, newest.polledAt ?? 0), 0)) }
      // The oldest frame acknowledged waited longest: from being handed to the link to this
      // ack, window waits and recoveries included.
      // (Not a frame resent while no one listened: that wait was the peer's boot, not the link.)
      if !first.resentUnanswered {
        deliveryDelay.record(max(now - first.queued, 0), now: now)
      }
      inFlight.removeFirst(acknowledged)
      sessionAcknowledged = true
      congestionWindow = min(congestionWindow + 1, configuration.window)
      duplicateAcks = 0
      consecutiveTimeouts = 0
      consecutiveFastRecoveries = 0
      // Polls count from the last progress, not from the last frame heard: a peer that answers
      // every poll without taking anything new would otherwise be polled every poll timeout
      // (245 polls in 0.6 s from the simulator, issue 31).
      pollsUnanswered = 0
      lastPoll = nil
      if holds {
        peerHolding = !inFlight.isEmpty
      } else if peerHolding {
        resumeAfterHold(now: now, output: &output)
      } else if frame.flags.contains(.nak), ack == inFlight.first?.seq {
        fastRetransmit(now: now, output: &output)
      }
    } else if ack == first.seq {
      let pollAnswer = pureAck && pollAnswersPending > 0
      if pollAnswer {
        // The answer to a poll of ours repeats the acknowledgement (a hold or a NAK answers one
        // too): it is not a duplicate. (Counted here, as a pure ack that acknowledges new frames
        // may be one just as well: the answers still to come then repeat it.)
        pollAnswersPending -= 1
      }
      if holds {
        // The peer has our frame and will take it once it can answer: no loss, no resend.
        peerHolding = true
      } else if peerHolding {
        // "Taking frames again" is an ack message without HOLD (a NAK too); the peer's other
        // frames repeat its acknowledgement while it still holds.
        if pureAck { resumeAfterHold(now: now, output: &output) }
      } else if frame.flags.contains(.nak) {
        fastRetransmit(now: now, output: &output)
      } else if pureAck && !pollAnswer {
        // Duplicate pure acks (a peer without NAKs): the second repeat resends.
        duplicateAcks += 1
        if duplicateAcks == 2 { fastRetransmit(now: now, output: &output) }
      }
    }
  }

  /// The peer that held our frame takes frames again: resend from it at once (no loss: the
  /// congestion window stays, no fast recovery is counted).
  private mutating func resumeAfterHold(now: Double, output: inout Output) {
    peerHolding = false
    guard !inFlight.isEmpty else { return }
    output.bytes += retransmitAll(now: now)
  }

  /// Go-back-N from the oldest frame in flight, unless that was resent so recently that the
  /// NAK cannot be about the copy (it answers something sent before it).
  private mutating func fastRetransmit(now: Double, output: inout Output) {
    guard let first = inFlight.first else { return }
    if first.retransmitted && now - first.lastSent < (timer.smoothedRTT ?? 0) { return }
    // A few in a row without progress, then only the RTO (which backs off): a peer that keeps
    // NAKing what it is sent cannot make an endless exchange of NAKs and resends.
    guard consecutiveFastRecoveries < configuration.maxFastRecoveries else { return }
    consecutiveFastRecoveries += 1
    statistics.fastRecoveries += 1
    congestionWindow = max(congestionWindow / 2, 1)
    output.bytes += retransmitAll(now: now)
  }

  /// The peer restarted: what it had not taken and that means nothing to it now (a host's
  /// messages timed on the board's old clock) is dropped, not resent (§6.9).
  mutating func dropStaleMessages() {
    let dropped = configuration.droppedOnPeerRestart
    guard !dropped.isEmpty else { return }
    let before = waiting.count
    waiting.removeAll { dropped.contains($0.type) }
    statistics.droppedOnPeerRestart += before - waiting.count
  }

  private mutating func restartSending() {
    // The peer forgot our sequence: start a new session of our own, resending what it missed.
    let pending = inFlight.map { (type: $0.frame.type, payload: $0.frame.payload, queued: $0.queued) }
    inFlight.removeAll()
    waiting.insert(contentsOf: pending, at: 0)
    sessionStarted = false
    sessionAcknowledged = false
    pollsThisSession = 0
    // A session that differs from the one before (§4.1, v1.1): a peer that followed that one
    // would drop this one's SYN as a retransmission, and what follows it as duplicates —
    // acknowledged, so lost without a trace (an independent host lost a board's replies so).
    if drawsSessions {
      let (oldSession, oldFirst) = (session, firstSequence)
      repeat { session = UInt8.random(in: 1...255) } while session == oldSession
      repeat { firstSequence = UInt8.random(in: 0...255) } while firstSequence == oldFirst
    } else {
      firstSequence &+= 128
    }
    nextSeq = firstSequence
    duplicateAcks = 0
    consecutiveFastRecoveries = 0
    peerHolding = false
    lastPoll = nil
    pollAnswersPending = 0
    timer.resetBackoff()
    consecutiveTimeouts = 0
  }
}
