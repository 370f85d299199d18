import HapticWire
import Testing

/// Fast recovery (docs/protocol.md §4.3, §4.5): a lost frame or acknowledgement costs about a
/// round trip plus a poll, not a retransmission timeout; the RTO keeps its backoff until a
/// valid sample; a go-back-N resends within the congestion window.
@Suite("Link recovery")
struct LinkRecoveryTests {
  /// Streams a batch every 40 ms for `seconds` over `faults`; returns each batch's delay from
  /// being sent to being delivered to the board, seconds, and the host's counters.
  static func deliveryDelays(faults: FaultModel, seconds: Double, seed: UInt64) -> ([Double], ReliableLink.Statistics) {
    var line = SimulatedLine(faults: faults, seed: seed)
    var sentAt: [Double] = []
    var delays: [Double] = []
    var nextBatch = 0.0
    while line.now < seconds + 1 {
      if line.now >= nextBatch && line.now < seconds {
        sentAt.append(line.now)
        line.hostSends(LinkTests.batch(sentAt.count - 1))
        nextBatch += 0.040
      }
      let before = line.boardReceived.count
      line.advance(0.0005)
      for index in before..<line.boardReceived.count { delays.append(line.now - sentAt[index]) }
    }
    return (delays, line.host.statistics)
  }

  @Test("Streaming over 0.1 % and 1 % byte loss: every batch arrives, within 20 ms and 100 ms")
  func deliveryUnderLoss() {
    for (drop, corrupt, worst, p99) in [(0.001, 0.0001, 0.020, 0.010), (0.01, 0.001, 0.100, 0.040)] {
      let (delays, statistics) = Self.deliveryDelays(
        faults: FaultModel(dropRate: drop, corruptRate: corrupt, seed: 5), seconds: 60, seed: 5)
      #expect(delays.count == 1500, "drop \(drop): every batch delivered")
      let sorted = delays.sorted()
      let (max, high) = (sorted.last ?? .infinity, sorted[sorted.count * 99 / 100])
      print("drop \(drop): p99 \(high * 1000) ms, max \(max * 1000) ms, \(statistics)")
      #expect(max <= worst && high <= p99, "drop \(drop): p99 \(high * 1000) ms, max \(max * 1000) ms")
      #expect(statistics.fastRecoveries > statistics.timeouts, "drop \(drop): recovered mostly without the RTO")
    }
  }

  /// A clean line that delivered batch 0 (so both sides follow each other and an RTT is known),
  /// then lost batch 1 on the way.
  static func lineThatLostBatchOne() -> SimulatedLine {
    var line = SimulatedLine()
    line.hostSends(LinkTests.batch(0))
    for _ in 0..<20 { line.advance(0.0005) }
    line.hostSends(LinkTests.batch(1))
    line.toBoard.removeAll()
    return line
  }

  @Test("A gap gets a NAK at once; the sender resends from it before any timeout")
  func nakOnGap() {
    var line = Self.lineThatLostBatchOne()
    line.hostSends(LinkTests.batch(2))  // reveals the gap
    for _ in 0..<8 { line.advance(0.0005) }  // 4 ms: the NAK's round trip, far under the 25 ms RTO
    #expect(line.board.statistics.naksSent == 1)
    #expect(line.host.statistics.fastRecoveries == 1 && line.host.statistics.timeouts == 0)
    #expect(line.boardReceived == (0..<3).map(LinkTests.batch), "in order, the lost one included")
  }

  @Test("A lost frame at the tail (nothing after it) or a lost ack: a poll recovers it in ~5 ms")
  func pollRecoversTail() {
    var line = Self.lineThatLostBatchOne()  // the last frame: no later one reveals the gap
    for _ in 0..<16 { line.advance(0.0005) }  // 8 ms: one poll, its NAK, the resend
    #expect(line.host.statistics.polls == 1 && line.host.statistics.timeouts == 0)
    #expect(line.boardReceived.count == 2)
    // Now the ack is lost: the frame arrived; the poll's answer acknowledges it.
    line.hostSends(LinkTests.batch(2))
    line.advance(0.0005)
    line.advance(0.0005)
    #expect(line.boardReceived.count == 3)
    line.toHost.removeAll()
    for _ in 0..<16 { line.advance(0.0005) }
    #expect(line.host.unacknowledged == 0 && line.host.statistics.retransmissions == 2, "acknowledged by the poll (the tail frame went twice)")
  }

  @Test("The backed-off RTO stays until a frame sent once is acknowledged (RFC 6298 §5.7)")
  func backoffKept() {
    var link = ReliableLink(session: 1, configuration: .init(minimumPollTimeout: 1, maxPolls: 0))
    _ = link.send(.heartbeat, now: 0)
    _ = link.poll(now: 0.025)  // timeout: RTO 50 ms
    _ = link.poll(now: 0.08)  // timeout: RTO 100 ms
    #expect(link.retransmitTimeout == 0.1)
    // The resent frame's ack (round trip 40 ms, over the 25 ms floor): no sample, RTO kept.
    let ack = WireFrame(flags: [.ackValid], session: 9, seq: 0, ack: 1, type: 0, payload: [])
    _ = link.receive([ack], now: 0.12)
    #expect(link.retransmitTimeout == 0.1 && link.smoothedRTT == nil)
    // A frame sent once and acknowledged after 40 ms: a valid sample sets the RTO from it.
    _ = link.send(.heartbeat, now: 0.2)
    _ = link.receive([WireFrame(flags: [.ackValid], session: 9, seq: 0, ack: 2, type: 0, payload: [])], now: 0.24)
    #expect(abs((link.smoothedRTT ?? 0) - 0.04) < 1e-9)
    #expect(abs(link.retransmitTimeout - (0.04 + 4 * 0.02)) < 1e-9)
  }

  @Test("A go-back-N after a loss resends within the congestion window, not the whole window")
  func congestionWindow() {
    var link = ReliableLink(session: 1, configuration: .init(maxPolls: 0))
    var decoder = FrameDecoder()
    for n in 0..<8 { _ = link.send(LinkTests.batch(n), now: 0) }
    let nak = WireFrame(flags: [.ackValid, .nak], session: 9, seq: 0, ack: 0, type: 0, payload: [])
    let resent = decoder.feed(link.receive([nak], now: 0.001).bytes)
    #expect(resent.count == 5, "window 8 halved: 4 frames now, the awaited one twice, \(resent.map(\.seq))")
    #expect(resent.map(\.seq) == [0, 1, 2, 3, 0])
    // Two acknowledged: the window grows by one per ack, the next resends follow in order.
    let ack = WireFrame(flags: [.ackValid], session: 9, seq: 0, ack: 2, type: 0, payload: [])
    let more = decoder.feed(link.receive([ack], now: 0.002).bytes)
    #expect(more.map(\.seq) == [4, 5, 6], "\(more.map(\.seq))")
    #expect(link.statistics.fastRecoveries == 1 && link.statistics.retransmissions == 8)
  }

  @Test("First contact: a board's unanswered frames (its SYN) go out again at once, not after the RTO")
  func firstContact() {
    var board = ReliableLink(session: 0x2A)
    var decoder = FrameDecoder()
    _ = board.send(.resetNotice(bootCount: 42, cause: .powerOn), now: 0)
    for t in stride(from: 0.0, through: 1.0, by: 0.001) { _ = board.poll(now: t) }  // nobody listens
    #expect(board.retransmitTimeout >= 0.4, "backed off: \(board.retransmitTimeout)")
    let syn = WireFrame(flags: [.reliable, .syn], session: 0x77, seq: 0, ack: 0, type: 0x01, payload: [])
    let answer = decoder.feed(board.receive([syn], now: 1.0005).bytes)
    #expect(answer.contains { $0.type == WireMessage.Kind.resetNotice.rawValue && $0.flags.contains(.syn) })
    // It already follows the host's session: the resend says so (R|A|SYN, as the Uno's does;
    // issue 31 point 5), acknowledging nothing of it yet (it expects its first frame).
    let notice = answer.first { $0.type == WireMessage.Kind.resetNotice.rawValue }
    #expect(notice?.flags.contains(.ackValid) == true && notice?.ack == 0, "\(String(describing: notice))")
    #expect(board.retransmitTimeout == 0.025, "the backoff is forgotten")
  }

  @Test("A peer that boots while we wait (the Uno's auto-reset): its silence is no loss — no retransmission, no timeout, no delivery-delay sample")
  func bootingPeerIsNoLoss() {
    var host = ReliableLink(session: 0x77)
    var decoder = FrameDecoder()
    _ = host.send(.identify, now: 0)
    for t in stride(from: 0.0, through: 1.0, by: 0.001) { _ = host.poll(now: t) }  // the board boots: nobody listens
    // The board's application starts: its SYN, then it acknowledges our resent identify.
    let syn = WireFrame(flags: [.reliable, .syn], session: 0x2A, seq: 0, ack: 0, type: WireMessage.Kind.resetNotice.rawValue, payload: [42, 0, 1])
    let resent = decoder.feed(host.receive([syn], now: 1.0005).bytes)
    #expect(resent.contains { $0.type == WireMessage.Kind.identify.rawValue }, "the identify goes again at once")
    let ack = WireFrame(flags: [.ackValid], session: 0x2A, seq: 1, ack: 1, type: 0, payload: [])
    _ = host.receive([ack], now: 1.004)
    #expect(host.unacknowledged == 0, "the identify was acknowledged")
    #expect(host.statistics.unansweredResends > 0, "\(host.statistics)")
    // Before: 10 retransmissions and 4 timeouts per `send` to an auto-resetting board, and a
    // 1 s delivery delay that raised the engine's lookahead to its 400 ms bound.
    #expect(host.statistics.retransmissions == 0 && host.statistics.timeouts == 0, "\(host.statistics)")
    #expect(host.deliveryDelay.value(at: 1.004) < 0.1, "delivery delay \(host.deliveryDelay.value(at: 1.004)) s")
  }

  @Test("A lost SYN: the peer answers a poll with a NAK without ACK_VALID, and the SYN goes again")
  func lostSyn() {
    var line = SimulatedLine()
    // Let the board be heard first (its own session, acknowledged by nothing yet).
    line.transmit(line.board.send(.resetNotice(bootCount: 1, cause: .powerOn), now: 0), toBoard: false)
    for _ in 0..<4 { line.advance(0.0005) }
    line.hostSends(.identify)
    line.toBoard.removeAll()  // the host's SYN is lost
    for _ in 0..<16 { line.advance(0.0005) }  // 8 ms: a poll, the "follows none" NAK, the SYN again
    #expect(line.board.statistics.naksSent >= 1)
    #expect(line.boardReceived.contains(.identify), "delivered before the 25 ms RTO")
    #expect(line.host.statistics.timeouts == 0)
  }

  @Test("The receive window: at most 322 bytes unacknowledged; one frame always goes")
  func receiveWindow() {
    var link = ReliableLink(session: 1, configuration: .init(maxPolls: 0))
    var decoder = FrameDecoder()
    let big = [UInt8](repeating: 7, count: 240)
    var sent = decoder.feed(link.send(type: 0x0A, payload: big, now: 0))
    sent += decoder.feed(link.send(type: 0x0A, payload: big, now: 0))
    #expect(sent.count == 1, "a second full frame waits for the first's ack")
    let ack = WireFrame(flags: [.ackValid], session: 9, seq: 0, ack: 1, type: 0, payload: [])
    #expect(decoder.feed(link.receive([ack], now: 0.01).bytes).map(\.seq) == [1], "then it goes")
    // Small frames fill what the window leaves: beside a 252-byte frame, one of 42 bytes.
    var small: [WireFrame] = []
    for _ in 0..<8 { small += decoder.feed(link.send(type: 0x0A, payload: [UInt8](repeating: 1, count: 30), now: 0.02)) }
    #expect(small.count == 1, "the big frame leaves room for one 42-byte frame: \(small.count)")
  }

  @Test("A board still following another host's session: a poll gets 'follows none' and the host restarts its own")
  func newHostAfterAnother() {
    var board = ReliableLink(session: 1)
    var other = ReliableLink(session: 121)
    var host = ReliableLink(session: 29)
    var decoder = FrameDecoder()
    // Another process's identify: the board follows it and answers (ack + its session's SYN).
    let answer = decoder.feed(board.receive(decoder.feed(other.send(.identify, now: 0)), now: 0.001).bytes)
    // A new host opens the port: its SYN frame is lost; its second frame arrives, stale to the
    // board. The board's ack for the other host's frame is taken for the new host's SYN (an ack
    // does not say which session it means) — the case §4.5's "NAK alone" repairs.
    _ = host.send(.clockQuery(id: 7), now: 0.010)
    let stale = decoder.feed(host.send(.statusRequest, now: 0.010))
    #expect(board.receive(stale, now: 0.011).frames.isEmpty, "stale: not delivered")
    _ = host.receive(answer, now: 0.012)
    #expect(host.unacknowledged == 1)
    // The host polls; the board answers "follows none"; the host starts its session again.
    let poll = decoder.feed(host.poll(now: host.nextDeadline ?? 1).bytes)
    #expect(poll.first?.flags.contains(.poll) == true)
    let none = decoder.feed(board.receive(poll, now: 0.02).bytes)
    #expect(none.count == 1 && none.first?.flags == .nak, "\(none.map(\.flags))")
    let again = decoder.feed(host.receive(none, now: 0.021).bytes)
    // Its new session starts 128 after the last one's first number (§4.1 v1.1).
    #expect(again.first?.flags.contains(.syn) == true && again.first?.seq == 128)
    let restart = board.receive(again, now: 0.022)
    #expect(restart.events == [.peerRestarted])
    #expect(restart.frames.map(\.type) == [WireMessage.Kind.statusRequest.rawValue], "delivered after the restart")
    _ = host.receive(decoder.feed(restart.bytes), now: 0.023)
    #expect(host.unacknowledged == 0)
  }

  @Test("Answers to our polls repeat the last acknowledgement: not duplicate acks, no resend")
  func pollAnswersAreNotDuplicates() {
    // Measured on the emulated Uno: a 238-byte frame took 7 ms to be acknowledged, two polls
    // went out meanwhile, and their two answers (ack = the next frame's number, already sent)
    // made a fast retransmit of a frame that was fine (9 of 30 bursts).
    var host = ReliableLink(session: 7)
    var board = ReliableLink(session: 1)
    var decoder = FrameDecoder()
    _ = host.receive(decoder.feed(board.receive(decoder.feed(host.send(.identify, now: 0)), now: 0.001).bytes), now: 0.002)
    _ = host.receive(decoder.feed(board.send(.clock(id: 1, boardTime: 1), now: 0.003)), now: 0.004)
    let big = decoder.feed(host.send(.statusRequest, now: 0.010))
    var polls: [WireFrame] = []
    var t = 0.010
    while polls.count < 2, t < 0.1 {
      t += 0.0005
      polls += decoder.feed(host.poll(now: t).bytes)
    }
    #expect(polls.count == 2 && polls.allSatisfy { $0.flags.contains(.poll) })
    // The board takes the frame, then the polls: one ack each, all with the same number.
    let dataAck = decoder.feed(board.receive(big, now: t + 0.001).bytes)
    let answers = polls.flatMap { decoder.feed(board.receive([$0], now: t + 0.002).bytes) }
    #expect(answers.count == 2 && answers.allSatisfy { $0.ack == dataAck.first?.ack })
    _ = host.receive(dataAck, now: t + 0.003)
    _ = decoder.feed(host.send(.statusRequest, now: t + 0.003))  // the next frame goes
    #expect(host.unacknowledged == 1)
    let resent = host.statistics.retransmissions
    let out = decoder.feed(host.receive(answers, now: t + 0.004).bytes)
    #expect(host.statistics.retransmissions == resent, "resent on poll answers: \(out)")
    // Two genuine duplicates after that still resend (a peer without NAKs).
    let duplicate = WireFrame(flags: [.ackValid], session: 1, seq: 0, ack: dataAck.first?.ack ?? 0, type: 0, payload: [])
    _ = host.receive([duplicate, duplicate], now: t + 0.005)
    #expect(host.statistics.retransmissions > resent, "in flight \(host.unacknowledged)")
  }
}
