import HapticWire
import Testing

/// Protocol v1.1's link rules where an independent host fell into traps (issue 31 points 2, 3,
/// 9, 10; docs/protocol.md §4.3, §4.5), on the host's `ReliableLink` against a peer scripted
/// frame by frame on a virtual clock: which acknowledgements give round-trip samples, what a
/// `HOLD` does, and that NAKs without progress cannot keep a sender resending.
@Suite("Link rules (v1.1)")
struct LinkRulesTests {
  static let peerSession: UInt8 = 0x01

  /// A host link that has heard its peer (a reset notice with the peer's SYN: polls may go).
  static func heardLink() -> ReliableLink {
    var link = ReliableLink(session: 0x11, firstSequence: 0)
    let notice = WireMessage.resetNotice(bootCount: 1, cause: .powerOn)
    _ = link.receive(
      [WireFrame(flags: [.reliable, .syn], session: peerSession, seq: 0, ack: 0, type: notice.kind.rawValue, payload: notice.payload())],
      now: 0)
    return link
  }

  /// The peer's `ack` message with `flags` added to ACK_VALID.
  static func ack(_ value: UInt8, _ flags: WireFrame.Flags = []) -> WireFrame {
    WireFrame(flags: flags.union(.ackValid), session: peerSession, seq: 0, ack: value, type: 0, payload: [])
  }

  /// The reliable frames in `bytes`, by sequence number.
  static func sent(_ bytes: [UInt8]) -> [UInt8] {
    var decoder = FrameDecoder()
    return decoder.feed(bytes).filter { $0.flags.contains(.reliable) }.map(\.seq)
  }

  /// Five exchanges answered 2 ms after they left: the estimate a clean line gives.
  static func settle(_ link: inout ReliableLink, from start: Double) -> Double {
    var now = start
    for _ in 0..<5 {
      let bytes = link.send(.statusRequest, now: now)
      let seq = sent(bytes)[0]
      now += 0.002
      _ = link.receive([ack(seq &+ 1)], now: now)
      now += 0.001
    }
    return now
  }

  @Test("Frames a go-back-N held back give no sample when their ack comes a recovery later (point 3)")
  func heldBackFramesGiveNoSample() throws {
    var link = Self.heardLink()
    for _ in 0..<4 { _ = link.send(.statusRequest, now: 0.001) }
    // No answer: the RTO (25 ms) resends; after a timeout the congestion window is 1, so frames
    // 1–3 wait behind frame 0 (not resent, not "retransmitted").
    let resent = link.poll(now: 0.030)
    #expect(Self.sent(resent.bytes).first == 0)
    #expect(!Self.sent(resent.bytes).contains(3), "frame 3 held back: \(Self.sent(resent.bytes))")
    // Everything acknowledged a second later (the originals had arrived).
    _ = link.receive([Self.ack(4)], now: 1.0)
    #expect(link.smoothedRTT == nil, "a 1 s 'round trip' was sampled: \(link.smoothedRTT ?? 0)")
    #expect(link.pollTimeout == 0.002, "the poll timeout stays at its floor")
    // Clean exchanges then set it from what the line really does.
    _ = Self.settle(&link, from: 1.01)
    let srtt = try #require(link.smoothedRTT)
    #expect(abs(srtt - 0.002) < 1e-9 && link.pollTimeout < 0.005, "SRTT \(srtt)")
  }

  @Test("An ack that answers a poll is timed from the poll, not from the frame (point 3)")
  func polledFramesAreTimedFromThePoll() throws {
    var link = Self.heardLink()
    var now = Self.settle(&link, from: 0.01)
    #expect(link.smoothedRTT == 0.002)
    // A frame whose acknowledgement is lost: the poll goes at 2·SRTT, its answer acknowledges
    // it one round trip (2 ms) after the poll, 6.1 ms after the frame.
    let seq = Self.sent(link.send(.statusRequest, now: now))[0]
    now += link.pollTimeout + 0.0001
    var decoder = FrameDecoder()
    #expect(decoder.feed(link.poll(now: now).bytes).contains { $0.flags.contains(.poll) }, "a poll went out")
    now += 0.002
    _ = link.receive([Self.ack(seq &+ 1)], now: now)
    let srtt = try #require(link.smoothedRTT)
    #expect(abs(srtt - 0.002) < 1e-9, "the poll's wait was taken for a round trip: SRTT \(srtt)")
  }

  @Test("HOLD: no resend and no poll while the peer holds; its plain ack resumes at once (point 2)")
  func holdWaitsForThePeer() throws {
    var link = Self.heardLink()
    var now = Self.settle(&link, from: 0.01)  // frames 0–4 acknowledged
    for _ in 0..<3 { _ = link.send(.statusRequest, now: now) }  // 5, 6, 7
    now += 0.002
    // The peer took 5 and holds 6 (no room to answer it).
    let held = link.receive([Self.ack(6, .hold)], now: now)
    #expect(Self.sent(held.bytes).isEmpty, "nothing resent on a hold")
    // Polls would be answered with the same hold: none go out; nor resends before the RTO.
    for step in 1...10 {
      let output = link.poll(now: now + Double(step) * 0.001)
      #expect(output.bytes.isEmpty, "something went out \(step) ms into the hold")
    }
    #expect(link.statistics.polls == 0 && link.statistics.fastRecoveries == 0)
    // A NAK-less repeat of the hold is no duplicate ack either.
    #expect(Self.sent(link.receive([Self.ack(6, .hold), Self.ack(6, .hold)], now: now + 0.011).bytes).isEmpty)
    // "Taking frames again": 6 and 7 go now.
    let resumed = link.receive([Self.ack(6)], now: now + 0.012)
    #expect(Array(Self.sent(resumed.bytes).prefix(2)) == [6, 7], "\(Self.sent(resumed.bytes))")
    #expect(link.statistics.fastRecoveries == 0 && link.statistics.timeouts == 0, "a hold is no loss")
  }

  @Test("A peer NAKing without progress gets at most 3 fast recoveries, then only backed-off timeouts (point 10)")
  func naksWithoutProgressAreBounded() throws {
    var link = Self.heardLink()
    var now = Self.settle(&link, from: 0.01)
    let seq = Self.sent(link.send(.statusRequest, now: now))[0]
    // A NAK for the same frame every 3 ms for a second (what a board refusing it sent).
    var resends = 0
    for _ in 0..<333 {
      now += 0.003
      resends += Self.sent(link.receive([Self.ack(seq, .nak)], now: now).bytes).count
      resends += Self.sent(link.poll(now: now).bytes).count
    }
    #expect(link.statistics.fastRecoveries == 3, "fast recoveries: \(link.statistics.fastRecoveries)")
    // The timeouts between them back off (25, 50, 100 … ms), so a second holds only a few.
    #expect(link.statistics.timeouts <= 6, "timeouts: \(link.statistics.timeouts)")
    #expect(resends < 40, "resends in 1 s: \(resends)")
  }

  /// A host link that follows the board's session and whose own session the board follows.
  static func hostFollowingBoard() -> ReliableLink {
    var link = ReliableLink.host()
    let notice = WireMessage.resetNotice(bootCount: 1, cause: .powerOn)
    _ = link.receive(
      [WireFrame(flags: [.reliable, .syn], session: peerSession, seq: 0, ack: 0, type: notice.kind.rawValue, payload: notice.payload())],
      now: 0)
    _ = link.send(.identify, now: 0.001)
    _ = link.receive([ack(link.firstSequence &+ 1)], now: 0.002)
    return link
  }

  static let batch = WireMessage.queueSegments(SegmentBatch(
    channel: 0, startTime: 5_000, levelBytes: 1, segments: [.init(frames: 10, startLevel: 50, endLevel: 50, startFrequency: 0, endFrequency: 0)]))

  /// The message types of the reliable frames in `bytes`.
  static func types(_ bytes: [UInt8]) -> [UInt8] {
    var decoder = FrameDecoder()
    return decoder.feed(bytes).filter { $0.flags.contains(.reliable) }.map(\.type)
  }

  @Test("A board reset drops the host's unacknowledged timed messages instead of resending them on the new clock (point 14)")
  func resetDropsTimedMessages() {
    var link = Self.hostFollowingBoard()
    _ = link.send(Self.batch, now: 0.003)
    _ = link.send(.statusRequest, now: 0.003)
    // The board resets: its new session's SYN (a reset notice of boot 2).
    let notice = WireMessage.resetNotice(bootCount: 2, cause: .brownOut)
    let output = link.receive(
      [WireFrame(flags: [.reliable, .syn], session: 0x02, seq: 0, ack: 0, type: notice.kind.rawValue, payload: notice.payload())],
      now: 0.004)
    #expect(output.events.contains(.peerRestarted))
    #expect(Self.types(output.bytes) == [WireMessage.Kind.statusRequest.rawValue], "\(Self.types(output.bytes))")
    #expect(link.statistics.droppedOnPeerRestart == 1)
  }

  @Test("A NAK alone answering a poll, from a board that had followed the session (another host took it over), drops timed messages too (point 14)")
  func nakAloneAfterFollowingDropsTimedMessages() {
    var link = Self.hostFollowingBoard()
    _ = link.send(Self.batch, now: 0.003)
    _ = link.send(.statusRequest, now: 0.003)
    let nakAlone = WireFrame(flags: .nak, session: Self.peerSession, seq: 0, ack: 0, type: 0, payload: [])
    // Before a poll of this session a NAK alone answers an older poll: ignored (§4.5).
    #expect(link.receive([nakAlone], now: 0.0035).bytes.isEmpty, "acted on a NAK alone no poll of this session asked for")
    _ = link.poll(now: 0.003 + link.pollTimeout + 0.0005)
    let output = link.receive([nakAlone], now: 0.006)
    #expect(Self.types(output.bytes) == [WireMessage.Kind.statusRequest.rawValue], "\(Self.types(output.bytes))")
    // Before the board ever followed the session (the host's SYN lost), nothing is dropped.
    var fresh = ReliableLink.host()
    let notice = WireMessage.resetNotice(bootCount: 1, cause: .powerOn)
    _ = fresh.receive(
      [WireFrame(flags: [.reliable, .syn], session: Self.peerSession, seq: 0, ack: 0, type: notice.kind.rawValue, payload: notice.payload())],
      now: 0)
    _ = fresh.send(.identify, now: 0.001)
    _ = fresh.send(Self.batch, now: 0.001)
    _ = fresh.poll(now: 0.001 + fresh.pollTimeout + 0.0005)
    let restarted = fresh.receive([nakAlone], now: 0.004)
    #expect(Self.types(restarted.bytes).count == 2 && fresh.statistics.droppedOnPeerRestart == 0)
  }

  @Test("A board that restarts its session for a restarted host starts it 128 further on: a host that followed the last one takes it (§4.1)")
  func boardRestartsDiffer() throws {
    var host = ReliableLink.host()
    var board = ReliableLink(session: 0x02)
    var toHost = FrameDecoder(), toBoard = FrameDecoder()
    // The board's reset notice; the host follows it and connects.
    _ = host.receive(toHost.feed(board.send(.resetNotice(bootCount: 2, cause: .powerOn), now: 0)), now: 0.001)
    let connected = board.receive(toBoard.feed(host.send(.identify, now: 0.002)), now: 0.003)
    _ = host.receive(toHost.feed(connected.bytes), now: 0.004)
    // The board has an answer on its way when the host starts a session of its own again (it
    // was told the board followed none of its sessions: §4.5's NAK alone).
    let answer = board.send(.clock(id: 1, boardTime: 5), now: 0.005)  // lost on the line
    #expect(!answer.isEmpty)
    _ = host.send(.statusRequest, now: 0.006)
    _ = host.poll(now: 0.006 + host.pollTimeout + 0.0001)  // its answer: the NAK alone
    let restarted = host.receive([WireFrame(flags: .nak, session: 0x02, seq: 0, ack: 0, type: 0, payload: [])], now: 0.0085)
    // The board sees the host's new session and restarts its own: the clock answer goes again,
    // with SYN, 128 on from its last first number.
    let renumbered = board.receive(toBoard.feed(restarted.bytes), now: 0.009)
    #expect(renumbered.events.contains(.peerRestarted))
    let frames = toHost.feed(renumbered.bytes)
    let syn = try #require(frames.first { $0.flags.contains(.syn) })
    #expect(syn.seq == 128 && syn.type == WireMessage.Kind.clock.rawValue, "\(syn)")
    // The host, which followed the board's session from 0, takes it as a new session (with the
    // same first number it dropped it as a retransmitted SYN, and the answer with it).
    let taken = host.receive(frames, now: 0.010)
    #expect(taken.frames.contains { $0.type == WireMessage.Kind.clock.rawValue }, "the answer was dropped")
    // Its board's id is unchanged: the same boot, a session started for ours — not a reset.
    #expect(taken.events.isEmpty && host.statistics.peerSessionRestarts == 1, "\(taken.events)")
  }

  @Test("A peer that answers every poll without taking anything gets at most 6 polls, then the RTO (§4.5)")
  func pollsWithoutProgressAreBounded() {
    var link = Self.heardLink()
    let seq = Self.sent(link.send(.statusRequest, now: 0.01))[0]
    var polls = 0
    var decoder = FrameDecoder()
    // 24 ms, under the 25 ms RTO: each poll is answered at once, acknowledging nothing new.
    for step in 1...24 {
      let now = 0.01 + Double(step) * 0.001
      if decoder.feed(link.poll(now: now).bytes).contains(where: { $0.flags.contains(.poll) }) {
        polls += 1
        _ = link.receive([Self.ack(seq)], now: now + 0.0002)
      }
    }
    #expect(polls == 6, "\(polls) polls in 24 ms")
  }

  @Test("A lost SYN answered by two NAKs alone (two polls crossed them) restarts the host's session once (§4.5)")
  func crossedNaksRestartOnce() {
    var host = ReliableLink.host()
    let notice = WireMessage.resetNotice(bootCount: 1, cause: .powerOn)
    _ = host.receive(
      [WireFrame(flags: [.reliable, .syn], session: Self.peerSession, seq: 0, ack: 0, type: notice.kind.rawValue, payload: notice.payload())],
      now: 0)
    _ = host.send(Self.batch, now: 0.001)  // its SYN: lost
    var decoder = FrameDecoder()
    var polls = 0
    var now = 0.001
    while polls < 2 && now < 0.02 {
      now += 0.0005
      if decoder.feed(host.poll(now: now).bytes).contains(where: { $0.flags.contains(.poll) }) { polls += 1 }
    }
    #expect(polls == 2)
    let nakAlone = WireFrame(flags: .nak, session: Self.peerSession, seq: 0, ack: 0, type: 0, payload: [])
    let first = host.receive([nakAlone], now: now + 0.001)
    let session = host.session
    let second = host.receive([nakAlone], now: now + 0.0011)
    #expect(Self.types(first.bytes) == [WireMessage.Kind.queueSegments.rawValue], "the batch goes again, in a new session")
    #expect(second.bytes.isEmpty && host.session == session, "the second NAK alone answered the old session's poll")
    #expect(host.statistics.fastRecoveries == 1 && host.statistics.droppedOnPeerRestart == 0)
  }
}

