import Foundation
import HapticRenderer
import HapticSimulator
import HapticTransport
import HapticWire
import Testing

/// One board conformance suite (issue 13, docs/protocol.md): the same checks against the
/// simulator in process, `sim serve` on a pseudo-terminal and both emulated Unos running their
/// real firmware (Uno + DRV2605L, Uno + H-bridge with two channels). A new board passes these
/// before it is added (docs/boards.md).
@Suite("Board conformance", .serialized)
struct ConformanceTests {
  enum Target: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case simulator, simServe, emulatedUno, emulatedHBridge
    var testDescription: String { rawValue }
    /// Its board file's id (capabilities `boardID`).
    var boardID: String {
      switch self {
      case .simulator, .simServe: "sim-lra"
      case .emulatedUno: "uno-drv2605l"
      case .emulatedHBridge: "uno-hbridge"
      }
    }
    /// The board runs the firmware on the emulator (simavr and avr-gcc needed).
    var isEmulated: Bool { self == .emulatedUno || self == .emulatedHBridge }
  }

  /// The targets this machine can run (the emulated Unos need simavr and avr-gcc).
  static let targets = Target.allCases.filter { !$0.isEmulated || EmulatorToolchain.missing.isEmpty }

  /// Runs `body` with a host connected to a fresh board of `target`; with `faults`, what the
  /// host writes goes through them (drops, corruption); with `resetAt`, the board resets that
  /// many seconds after it started (the simulators as a brown-out, the emulated Unos as a power
  /// cycle).
  static func withBoard(
    _ target: Target, faults: FaultModel? = nil, resetAt: Double? = nil, _ body: (EmulatorHost) throws -> Void
  ) throws {
    func host(_ transport: any ByteTransport) throws -> EmulatorHost {
      try EmulatorHost(transport: faults.map { FaultInjectingTransport(transport, faults: $0) } ?? transport)
    }
    switch target {
    case .simulator:
      let (hostSide, boardSide) = LoopbackTransport.pair()
      var serverFaults = SimulatorServer.Faults()
      serverFaults.resetAt = resetAt
      let server = SimulatorServer(
        board: SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA)), transport: boardSide,
        faults: serverFaults)
      let thread = Thread { server.run() }
      thread.start()
      defer { server.stop() }
      try body(host(hostSide))
    case .simServe:
      let server = try BackgroundCLI(["sim", "serve"] + (resetAt.map { ["--reset-at", "\($0)"] } ?? []))
      defer { _ = server.terminate() }
      try body(host(Transports.open(path: server.firstLine, baud: 115_200)))
    case .emulatedUno:
      try EmulatedBoardTests.requireBuilt()
      let emulator = try EmulatorProcess()
      defer { _ = emulator.stop() }
      let cancel = Self.powerCycle(emulator.pid, after: resetAt)
      defer { cancel.signal() }  // before the emulator stops: no signal to a reaped pid
      try body(host(Transports.open(path: emulator.ptyPath, baud: 115_200)))
    case .emulatedHBridge:
      try EmulatedBoardTests.requireBuilt()
      let emulator = try EmulatorProcess(arguments: [
        EmulatorToolchain.hbridgeEmulatorBinary.path, "--firmware", EmulatorToolchain.hbridgeFirmwareELF.path,
      ])
      defer { _ = emulator.stop() }
      let cancel = Self.powerCycle(emulator.pid, after: resetAt)
      defer { cancel.signal() }  // before the emulator stops: no signal to a reaped pid
      try body(host(Transports.open(path: emulator.ptyPath, baud: 115_200)))
    }
  }

  /// Power-cycles the emulator `pid` (SIGUSR1) `seconds` from now unless the returned
  /// semaphore is signalled first; nothing without `seconds`.
  static func powerCycle(_ pid: pid_t, after seconds: Double?) -> DispatchSemaphore {
    let cancel = DispatchSemaphore(value: 0)
    if let seconds {
      Thread {
        if cancel.wait(timeout: .now() + seconds) == .timedOut { kill(pid, SIGUSR1) }
      }.start()
    }
    return cancel
  }

  /// A segment holding `level` for `frames` frames at the channel's f0.
  static func held(_ level: Int, frames: Int) -> SegmentBatch.Segment {
    .init(frames: frames, startLevel: level, endLevel: level, startFrequency: 0, endFrequency: 0)
  }

  /// The next `error` the board sends within `timeout`, if any.
  static func nextError(_ host: EmulatorHost, timeout: Double = 0.3) throws -> ProtocolError? {
    let reply = try host.wait(timeout: timeout) { if case .error = $0 { return true } else { return false } }
    if case .error(let error)? = reply?.message { return error }
    return nil
  }

  @Test("Handshake: identify answers capabilities in one round trip; a clock query echoes its id", arguments: targets)
  func handshake(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let asked = emulatorMonotonicSeconds()
      let capabilities = try #require(try host.identify(), "no capabilities")
      #expect(emulatorMonotonicSeconds() - asked < 0.1, "answered in one round trip plus processing")
      #expect(capabilities.boardID == target.boardID, "the board under test")
      #expect(capabilities.protocolVersion == WireFrame.protocolVersion)
      #expect(capabilities.channels.contains { $0.kind != .none })
      try host.send(.clockQuery(id: 0x4242))
      let clock = try host.wait(timeout: 1) { if case .clock(0x4242, _) = $0 { return true } else { return false } }
      #expect(clock != nil, "the clock answer carries the query's id")
    }
  }

  @Test("Errors are the documented ones, and only reliable frames get answers", arguments: targets)
  func errors(_ target: Target) throws {
    try Self.withBoard(target) { host in
      _ = try #require(try host.identify())
      try host.sendReliable(type: 0x42, payload: [1, 2])
      #expect(try Self.nextError(host) == ProtocolError(code: .unknownMessage, messageType: 0x42, detail: 0))
      try host.sendRaw(WireFrame(flags: [], session: host.session, seq: 0, ack: 0, type: 0x43, payload: [1]))
      #expect(try Self.nextError(host, timeout: 0.1) == nil, "an unreliable unknown frame is ignored")
      try host.sendRaw(WireFrame(version: 2, flags: [.reliable], session: 0x99, seq: 0, ack: 0, type: 0x0A, payload: []))
      #expect(try Self.nextError(host) == ProtocolError(code: .unsupportedVersion, messageType: 0x0A, detail: 1))
      let batch = SegmentBatch(
        channel: 7, startTime: 0, levelBytes: 1, segments: [Self.held(1, frames: 5)])
      try host.send(.queueSegments(batch))
      #expect(try Self.nextError(host) == ProtocolError(code: .badChannel, messageType: 0x05, detail: 7))
      try host.send(.setWatchdog(milliseconds: 5))
      #expect(try Self.nextError(host)?.code == .badPayload)
      try host.send(.stop(channels: 0xFF))
      #expect(try Self.nextError(host, timeout: 0.1) == nil, "stop names missing channels without an error")
    }
  }

  @Test("Watchdog: idle, armed with drive queued, fired once after silence, then idle", arguments: targets)
  func watchdog(_ target: Target) throws {
    try Self.withBoard(target) { host in
      _ = try #require(try host.identify())
      let first = try #require(try host.status())
      #expect(first.watchdog == .idle)
      let capabilities = try #require(host.received.lazy.compactMap { entry -> BoardCapabilities? in
        if case .capabilities(let c) = entry.message { return c } else { return nil }
      }.first)
      let ticks = UInt32(capabilities.clockFrequency / 1000)  // per millisecond
      let batch = SegmentBatch(
        channel: 0, startTime: first.boardTime &+ 50 &* ticks, levelBytes: 2,
        segments: [Self.held(60, frames: 2_000)])
      try host.send(.queueSegments(batch))
      #expect(try host.status()?.watchdog == .armed)
      host.answering = false
      usleep(300_000)  // silence: more than the 100 ms watchdog
      host.answering = true
      let after = try #require(try host.status())
      #expect(after.watchdog == .fired && after.channels.first?.queueFill == 0, "\(after)")
      #expect(try host.status()?.watchdog == .idle, "fired is reported once")
    }
  }

  @Test("A level beyond full scale drives and reports full scale; a late batch counts once", arguments: targets)
  func valuesAndLateness(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let capabilities = try #require(try host.identify())
      let channel = try #require(capabilities.channels.first)
      let signed = capabilities.features.contains(.signedLevels)
      let maxLevel = signed ? (1 << (channel.amplitudeBits - 1)) - 1 : (1 << channel.amplitudeBits) - 1
      let ticks = UInt32(capabilities.clockFrequency / 1000)  // per millisecond
      let now = try #require(try host.status()).boardTime
      let loud = SegmentBatch(
        channel: 0, startTime: now &+ 20 &* ticks, levelBytes: 2,
        segments: [Self.held(300, frames: 300)])
      try host.send(.queueSegments(loud))
      usleep(45_000)  // playing by now; well inside the 100 ms watchdog
      let playing = try #require(try host.status())
      #expect(playing.channels.first.map { Int($0.level) } == maxLevel, "level 300 drives \(maxLevel): \(playing)")
      // A batch that starts 50 ms in the past: its past part is skipped and it counts once.
      let late = SegmentBatch(
        channel: 0, startTime: playing.boardTime &- 50 &* ticks, levelBytes: 1,
        segments: [Self.held(40, frames: 100)])
      try host.send(.replaceSegments(late))
      let after = try #require(try host.status())
      let before = playing.channels.first?.lateSegments ?? 0
      #expect(after.channels.first?.lateSegments == before &+ 1, "\(after)")
      try host.send(.stop(channels: 0xFF))
    }
  }

  @Test("Loss and recovery: 2 % of the host's bytes dropped, every query still answered once", arguments: targets)
  func lossAndRecovery(_ target: Target) throws {
    try Self.withBoard(target, faults: FaultModel(dropRate: 0.02, corruptRate: 0.002, seed: 11)) { host in
      _ = try #require(try host.identify(timeout: 5))
      for id in UInt16(1)...20 {
        try host.send(.clockQuery(id: id))
        let answer = try host.wait(timeout: 2) { if case .clock(id, _) = $0 { return true } else { return false } }
        #expect(answer != nil, "query \(id) answered")
      }
      let answers = host.received.filter { if case .clock = $0.message { return true } else { return false } }
      #expect(answers.count == 20, "each query answered exactly once")
      let status = try #require(try host.status(timeout: 5))
      #expect(status.badFrames > 0 || host.linkStatistics.retransmissions > 0, "the faults were real")
    }
  }

  @Test("set watchdog applies; a batch that does not fit is refused whole with the free slots", arguments: targets)
  func watchdogSettingAndQueueFull(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let capabilities = try #require(try host.identify())
      let ticks = UInt32(capabilities.clockFrequency / 1000)  // per millisecond
      // 300 ms watchdog: 200 ms of silence keep the drive, 400 ms more stop it.
      try host.send(.setWatchdog(milliseconds: 300))
      let now = try #require(try host.status()).boardTime
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: now &+ 10 &* ticks, levelBytes: 1,
        segments: [Self.held(50, frames: 3_000)])))
      _ = try host.status()
      host.answering = false
      usleep(200_000)
      host.answering = true
      #expect(try host.status()?.watchdog == .armed, "200 ms of silence is within 300 ms")
      host.answering = false
      usleep(400_000)
      host.answering = true
      #expect(try host.status()?.watchdog == .fired)
      // Fill the queue with 1-frame segments until a batch no longer fits.
      let depth = Int(capabilities.queueDepth)
      let size = min(60, depth / 2 + 1)  // 3 bytes a segment: one frame each
      var start = try #require(try host.status()).boardTime &+ 1_000 &* ticks
      var refused: ProtocolError?
      for _ in 0..<(depth / size + 2) {
        let segments = (0..<size).map { Self.held($0 % 2 == 0 ? 10 : 20, frames: 1) }
        try host.send(.queueSegments(SegmentBatch(channel: 0, startTime: start, levelBytes: 1, segments: segments)))
        start &+= UInt32(size) &* ticks
        if let error = try Self.nextError(host, timeout: 0.1) {
          refused = error
          break
        }
      }
      let error = try #require(refused, "queue depth \(depth): a batch must be refused")
      #expect(error.code == .queueFull && Int(error.detail) < size, "\(error)")
      let status = try #require(try host.status())
      #expect(status.channels.first.map { Int($0.queueFill) + Int(error.detail) } == depth, "refused whole: \(status)")
      try host.send(.stop(channels: 0xFF))
    }
  }
}
