import Benchmark
import BenchmarkWorkloads
import Foundation
import HapticCore
import HapticRenderer
import HapticSimulator
import HapticWire

/// Writes one line to standard error (the runner keeps standard output for its tables).
func report(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A simulated `sim-lra` board with ten seconds of drive (``Workloads/tenSeconds()``, rendered
/// to segments) already queued through the protocol, starting at board time 10 ms, plus an
/// unreliable heartbeat frame to keep its watchdog fed. Built once in the setup closure.
struct QueuedBoard: Sendable {
  /// The board at virtual time 0, every segment queued.
  var board: SimulatedBoard
  /// One encoded `heartbeat` frame (any valid frame feeds the watchdog).
  var heartbeat: [UInt8]
  /// Board seconds the queued drive covers (from 10 ms on).
  var driveSeconds: Double
  /// Segments queued.
  var segments: Int

  /// Board seconds simulated by one iteration.
  static let seconds = 10.0

  init() {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.queueDepth = 100_000
    var board = SimulatedBoard(configuration: configuration)
    var host = ReliableLink(session: 0x42)
    var decoder = FrameDecoder()
    /// Delivers `bytes` to the board and its answers to the host until nothing is left.
    func exchange(_ bytes: [UInt8]) {
      var toBoard = bytes
      while !toBoard.isEmpty {
        let reply = board.receive(toBoard)
        toBoard = host.receive(decoder.feed(reply), now: 0).bytes
      }
    }
    // The boot reset notice, acknowledged (so the board does not retransmit it).
    exchange(host.receive(decoder.feed(board.advance(to: 0)), now: 0).bytes)
    var render = try! ChannelRender(pattern: Workloads.tenSeconds(), profile: .simLRA)
    let rendered = render.collect().segments
    let levelBytes = configuration.profile.levelBytes
    let firstFrame = 10
    // Packed as the engine packs them: ≤ 255 segments and ≤ 246 payload bytes a message.
    for message in SegmentBatch.messages(
      for: rendered, channel: 0, startFrame: firstFrame, levelBytes: levelBytes,
      ticksPerFrame: configuration.ticksPerFrame)
    {
      exchange(host.send(message, now: 0))
    }
    let frame = firstFrame + rendered.reduce(0) { $0 + $1.frames }
    self.board = board
    heartbeat = host.unreliable(.heartbeat)
    driveSeconds = Double(frame - firstFrame) * configuration.profile.framePeriod
    segments = rendered.count
  }

  /// Runs a copy of the board through ``seconds`` of board time in 1 ms passes (as the
  /// real-time server does), a heartbeat every 20 ms; returns the board.
  @inline(__always)
  func run() -> SimulatedBoard {
    var board = self.board
    for ms in 1...Int(Self.seconds * 1000) {
      blackHole(board.advance(to: Double(ms) * 0.001))
      if ms % 20 == 0 { blackHole(board.receive(heartbeat)) }
    }
    return board
  }
}

/// Simulator speed (issue 5): at least 100× real time for one LRA channel in release, i.e. at
/// most 100 ms of wall clock for 10 s of simulated time. Real-time factor = simulated seconds /
/// p50 wall clock seconds (the setup closures print the simulated seconds per iteration).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
    timeUnits: .microseconds, maxDuration: .seconds(4), maxIterations: 200)

  // PatternSimulation: renderer frames straight into the physics (16 kHz) until the ring-down
  // ends. The simulation is prepared in setup; each iteration runs a fresh copy.
  Benchmark(
    "PatternSimulation 10 s sim-lra NoTrace",
    closure: { (benchmark: Benchmark, prepared: PatternSimulation) in
      for _ in benchmark.scaledIterations {
        var simulation = prepared
        var trace = NoTrace()
        blackHole(simulation.run(into: &trace))
      }
    },
    setup: {
      let prepared = try! PatternSimulation(
        pattern: Workloads.tenSeconds(), configuration: SimulatorConfiguration(profile: .simLRA))
      var simulation = prepared
      var analyzer = ResponseAnalyzer(channels: 1, stepRate: prepared.configuration.physicsRate)
      let seconds = simulation.run(into: &analyzer)
      let metrics = analyzer.metrics[0]
      report(
        "[PatternSimulation] simulated \(String(format: "%.4f", seconds)) s per iteration at "
          + "\(Int(prepared.configuration.physicsRate)) Hz physics; peak "
          + String(format: "%.3f G, rms %.3f G", metrics.peak, metrics.rms)
          + "; real-time factor = \(String(format: "%.4f", seconds)) / p50 wall clock (s)")
      return prepared
    })

  Benchmark(
    "PatternSimulation 10 s sim-lra ResponseAnalyzer",
    closure: { (benchmark: Benchmark, prepared: PatternSimulation) in
      for _ in benchmark.scaledIterations {
        var simulation = prepared
        var analyzer = ResponseAnalyzer(channels: 1, stepRate: prepared.configuration.physicsRate)
        blackHole(simulation.run(into: &analyzer))
        blackHole(analyzer.metrics)
      }
    },
    setup: {
      try! PatternSimulation(pattern: Workloads.tenSeconds(), configuration: SimulatorConfiguration(profile: .simLRA))
    })

  // SimulatedBoard: the protocol board with its drive queue, watchdog, link and physics, run
  // for 10 s of board time with the whole pattern queued beforehand.
  Benchmark(
    "SimulatedBoard.advance 10 s sim-lra queued drive",
    closure: { (benchmark: Benchmark, prepared: QueuedBoard) in
      for _ in benchmark.scaledIterations { blackHole(prepared.run()) }
    },
    setup: {
      let prepared = QueuedBoard()
      let board = prepared.run()
      let status = board.status.channels[0]
      report(
        "[SimulatedBoard] \(prepared.segments) segments queued covering "
          + String(format: "%.3f", prepared.driveSeconds) + " s; after one run: board time "
          + String(format: "%.3f", board.time) + " s, peak "
          + String(format: "%.3f G", board.peakAcceleration[0]) + ", watchdog stops \(board.counters.watchdogStops), "
          + "underruns \(status.underruns), late \(status.lateSegments), errors \(board.counters.errors), "
          + "bad frames \(board.counters.badFrames); real-time factor = 10 / p50 wall clock (s)")
      return prepared
    })

  // The same board with nothing queued: what the real-time server pays while idle.
  Benchmark(
    "SimulatedBoard.advance 10 s sim-lra idle",
    closure: { (benchmark: Benchmark, heartbeat: [UInt8]) in
      for _ in benchmark.scaledIterations {
        var board = SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA))
        for ms in 1...10_000 {
          blackHole(board.advance(to: Double(ms) * 0.001))
          if ms % 20 == 0 { blackHole(board.receive(heartbeat)) }
        }
        blackHole(board)
      }
    },
    setup: { ReliableLink(session: 0x42).unreliable(.heartbeat) })
}
