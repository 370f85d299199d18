import HapticWire
import Testing

/// Two link endpoints joined by a simulated serial line on a virtual clock.
struct SimulatedLine {
  struct InTransit {
    let arrival: Double
    let bytes: [UInt8]
  }

  var host = ReliableLink(session: 0x11)
  var board = ReliableLink(session: 0x01)
  var hostDecoder = FrameDecoder()
  var boardDecoder = FrameDecoder()
  var toBoard: [InTransit] = []
  var toHost: [InTransit] = []
  var faultsToBoard: FaultModel
  var faultsToHost: FaultModel
  /// One-way latency plus 10 µs per byte (1 Mbaud, 8N1).
  var latency = 0.0005
  var now = 0.0
  var boardReceived: [WireMessage] = []
  var hostReceived: [WireMessage] = []
  var hostEvents: [ReliableLink.Event] = []

  init(faults: FaultModel = FaultModel(), seed: UInt64 = 1) {
    faultsToBoard = faults
    faultsToHost = FaultModel(
      dropRate: faults.dropRate, corruptRate: faults.corruptRate, duplicateRate: faults.duplicateRate, seed: seed &+ 99)
  }

  mutating func hostSends(_ message: WireMessage) {
    transmit(host.send(message, now: now), toBoard: true)
  }

  mutating func transmit(_ bytes: [UInt8], toBoard: Bool) {
    guard !bytes.isEmpty else { return }
    let busy = (toBoard ? self.toBoard.last?.arrival : self.toHost.last?.arrival) ?? 0
    let arrival = max(now + latency, busy) + Double(bytes.count) * 10e-6
    if toBoard {
      self.toBoard.append(InTransit(arrival: arrival, bytes: faultsToBoard.apply(bytes)))
    } else {
      self.toHost.append(InTransit(arrival: arrival, bytes: faultsToHost.apply(bytes)))
    }
  }

  /// Advances virtual time by `step`, delivering what arrived and running timers.
  mutating func advance(_ step: Double) {
    now += step
    while let first = toBoard.first, first.arrival <= now {
      toBoard.removeFirst()
      let output = board.receive(boardDecoder.feed(first.bytes), now: now)
      for frame in output.frames {
        if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) { boardReceived.append(message) }
      }
      transmit(output.bytes, toBoard: false)
    }
    while let first = toHost.first, first.arrival <= now {
      toHost.removeFirst()
      let output = host.receive(hostDecoder.feed(first.bytes), now: now)
      hostEvents += output.events
      for frame in output.frames {
        if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) { hostReceived.append(message) }
      }
      transmit(output.bytes, toBoard: true)
    }
    let hostPoll = host.poll(now: now)
    hostEvents += hostPoll.events
    transmit(hostPoll.bytes, toBoard: true)
    transmit(board.poll(now: now).bytes, toBoard: false)
  }
}

@Suite("Reliable link")
struct LinkTests {
  static func batch(_ n: Int) -> WireMessage {
    .queueSegments(SegmentBatch(
      channel: 0, startTime: UInt32(n * 10), levelBytes: 1,
      segments: [.init(frames: 10, startLevel: n % 127, endLevel: (n * 7) % 127, startFrequency: 170, endFrequency: 170)]))
  }

  @Test("A clean line delivers in order, with few acks and no retransmissions")
  func cleanLine() {
    var line = SimulatedLine()
    for n in 0..<200 { line.hostSends(Self.batch(n)) }
    for _ in 0..<2000 { line.advance(0.0005) }
    #expect(line.boardReceived.count == 200)
    #expect(line.boardReceived == (0..<200).map(Self.batch), "in order")
    #expect(line.host.statistics.retransmissions == 0)
    #expect(line.host.unacknowledged == 0)
    #expect(line.host.retransmitTimeout >= 0.025)
  }

  @Test("10,000 segments arrive exactly once and in order over 1 % drop and 0.1 % corruption")
  func lossyLine() {
    var line = SimulatedLine(faults: FaultModel(dropRate: 0.01, corruptRate: 0.001, seed: 7), seed: 7)
    let count = 10_000
    var sent = 0
    var steps = 0
    while line.boardReceived.count < count && steps < 2_000_000 {
      // Keep a bounded backlog, as the streaming scheduler does.
      while sent < count && line.host.unacknowledged < 16 {
        line.hostSends(Self.batch(sent))
        sent += 1
      }
      line.advance(0.0005)
      steps += 1
    }
    #expect(line.boardReceived.count == count)
    let expected = (0..<count).map(Self.batch)
    let firstWrong = line.boardReceived.indices.first { line.boardReceived[$0] != expected[$0] }
    #expect(firstWrong == nil, "exactly once, in order")
    #expect(line.host.statistics.retransmissions > 0, "the faults were real")
    #expect(line.boardDecoder.counters.rejected > 0, "corrupt frames were rejected, not delivered")
    #expect(!line.hostEvents.contains(.linkLost))
  }

  @Test("Duplicated bytes and frames never deliver twice")
  func duplicates() {
    var line = SimulatedLine(faults: FaultModel(duplicateRate: 0.02, seed: 3), seed: 3)
    for n in 0..<500 { line.hostSends(Self.batch(n)) }
    var steps = 0
    while line.boardReceived.count < 500 && steps < 400_000 {
      line.advance(0.0005)
      steps += 1
    }
    #expect(line.boardReceived.count == 500)
    #expect(zip(line.boardReceived, (0..<500).map(Self.batch)).allSatisfy { $0 == $1 })
  }

  @Test("A silent peer makes the link report loss")
  func linkLost() {
    var host = ReliableLink()
    var now = 0.0
    _ = host.send(.identify, now: now)
    var events: [ReliableLink.Event] = []
    for _ in 0..<1000 {
      now += 0.01
      events += host.poll(now: now).events
    }
    #expect(events.contains(.linkLost))
    // Nobody ever answered: the resends are not counted as retransmissions of a link that
    // loses frames (a board booting after the Uno's auto-reset is silent so), but apart.
    #expect(host.statistics.unansweredResends >= 8)
    #expect(host.statistics.retransmissions == 0 && host.statistics.timeouts == 0)
  }

  @Test("A board restart (SYN from a new session) is reported and our unacked frames are resent")
  func peerRestart() {
    var line = SimulatedLine()
    line.hostSends(.identify)
    for _ in 0..<40 { line.advance(0.0005) }
    // The board sends something, establishing its session with the host.
    line.transmit(line.board.send(.resetNotice(bootCount: 1, cause: .powerOn), now: line.now), toBoard: false)
    for _ in 0..<40 { line.advance(0.0005) }
    // The board reboots: a fresh link whose first frame carries SYN.
    line.board = ReliableLink(session: 0x02)
    line.boardDecoder = FrameDecoder()
    line.transmit(line.board.send(.resetNotice(bootCount: 2, cause: .watchdog), now: line.now), toBoard: false)
    line.hostSends(.heartbeat)
    for _ in 0..<400 { line.advance(0.0005) }
    #expect(line.hostEvents.contains(.peerRestarted))
    #expect(line.hostReceived.contains(.resetNotice(bootCount: 2, cause: .watchdog)))
    #expect(line.boardReceived.last == .heartbeat, "the host's next frames reach the restarted board")
  }

  @Test("A frame of another protocol version is reported, not delivered")
  func versionMismatch() {
    var link = ReliableLink()
    let alien = WireFrame(version: 2, flags: [.reliable, .syn], seq: 0, ack: 0, type: 2, payload: [])
    let output = link.receive([alien], now: 0)
    #expect(output.events == [.versionMismatch(2)])
    #expect(output.frames.isEmpty)
    #expect(output.bytes.isEmpty, "not acknowledged")
  }

  @Test("RTO follows RFC 6298 and backs off")
  func retransmitTimer() {
    var timer = RetransmitTimer(initial: 0.025, minimum: 0.001, maximum: 2)
    timer.sample(0.010)
    #expect(abs(timer.timeout - 0.030) < 1e-9)  // 10 ms + 4 × 5 ms
    timer.sample(0.010)
    #expect(timer.timeout < 0.030)
    let before = timer.timeout
    timer.backOff()
    #expect(timer.timeout == before * 2)
  }
}
