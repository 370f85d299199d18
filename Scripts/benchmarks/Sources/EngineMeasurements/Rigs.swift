import Foundation
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticTransport
import Synchronization

/// What a measurement needs from a setup: an engine, the board's drive log and clocks, all in
/// one time base ("rig seconds").
protocol Rig: AnyObject {
  var engine: HapticEngine { get }
  /// Rig seconds now: the time base of ``driveLog()`` times.
  func now() -> Double
  /// The board's drive log (times in rig seconds).
  func driveLog() -> [SimulatedBoard.DriveChange]
  /// The board's own clock in seconds at rig time `t` (offset and drift applied).
  func boardSeconds(atRig t: Double) -> Double
  /// Board-side counters: (underruns, late segments, watchdog stops, bad frames).
  func boardCounters() -> (underruns: Int, late: Int, watchdog: Int, badFrames: Int)
  /// A line on the setup's own counters (overruns, bytes), if any.
  func extraReport() -> String?
  /// `replace segments` frames as they reached the board, when the rig can see the line:
  /// (rig seconds of the last byte, encoded bytes, the batch's start in board seconds, seq).
  func replaceArrivals() -> [(time: Double, bytes: Int, start: Double, seq: UInt8)]?
  /// When the host's writes of `replace segments` frames returned (rig seconds), with their seq.
  func replaceWrites() -> [(time: Double, seq: UInt8)]?
  func close()
}

extension Rig {
  func replaceArrivals() -> [(time: Double, bytes: Int, start: Double, seq: UInt8)]? { nil }
  func replaceWrites() -> [(time: Double, seq: UInt8)]? { nil }
}

/// The board clock of `configuration` at virtual time `t`, as ``SimulatedBoard/boardTicks(at:)``.
func trueBoardSeconds(_ configuration: SimulatorConfiguration, at t: Double) -> Double {
  Double(SimulatedBoard(configuration: configuration).boardTicks(at: t)) / Double(configuration.clockFrequency)
}

/// An engine over the in-process simulator (``SimulatorBoardLink``), real-time or virtual.
/// Rig seconds = the link's host clock, which is also the board's virtual time.
final class InProcessRig: Rig {
  let link: SimulatorBoardLink
  let engine: HapticEngine
  let configuration: SimulatorConfiguration

  init(_ configuration: SimulatorConfiguration, clock: SimulatorBoardLink.Clock, start: Bool = true) throws {
    self.configuration = configuration
    let link = try ThreadLabels.label("SimulatorBoardLink") {
      try SimulatorBoardLink(configuration: configuration, clock: clock, logsDrive: true)
    }
    self.link = link
    let engine = try HapticEngine(link: link)
    self.engine = engine
    if start { try ThreadLabels.label("HapticEngine") { try engine.start() } }
  }

  func now() -> Double { link.hostNow }
  func driveLog() -> [SimulatedBoard.DriveChange] { link.snapshot.driveLog }
  func boardSeconds(atRig t: Double) -> Double { trueBoardSeconds(configuration, at: t) }
  func boardCounters() -> (underruns: Int, late: Int, watchdog: Int, badFrames: Int) {
    counters(of: link.snapshot)
  }
  func extraReport() -> String? { nil }
  func close() { engine.close() }
}

/// ``SimulatorServer`` on a pseudo-terminal in this process (its board side paced as a 1 Mbaud
/// line by ``PacedTransport``), and an engine over ``SerialBoardLink`` on the pty's client side.
///
/// Rig seconds = seconds since the server's `run()` began, which is the served board's virtual
/// time: the server thread notes `ContinuousClock.now` immediately before calling `run()`,
/// whose first statement takes its own start instant, so the two bases agree within
/// microseconds. Host call times are converted into this base from the same monotonic clock.
final class PtyRig: Rig {
  let pty: PseudoTerminal
  let paced: PacedTransport
  let server: SimulatorServer
  let configuration: SimulatorConfiguration
  let link: SerialBoardLink
  let engine: HapticEngine
  let bitRate: Double
  let stamps: WriteStampTransport
  private let serverStart: ContinuousClock.Instant
  private let serverThread: Thread
  private let serverDone = Flag()

  /// Starts the server on a new pty, connects an engine at `bitRate` and starts it (clock sync).
  ///
  /// - Parameters:
  ///   - bitRate: line speed emulated on the pty (bits/s, 10 bits per byte).
  ///   - faults: line faults of the served board (`--drop`, `--corrupt`), none by default.
  init(
    _ configuration: SimulatorConfiguration, bitRate: Double = 1_000_000,
    faults: SimulatorServer.Faults = SimulatorServer.Faults(), engine settings: HapticEngine.Configuration = .init()
  ) throws {
    self.configuration = configuration
    self.bitRate = bitRate
    let pty = try PseudoTerminal()
    self.pty = pty
    var board = SimulatedBoard(configuration: configuration)
    board.logsDrive = true
    let line = LineWrites()
    let paced = ThreadLabels.label("pace-writer") { PacedTransport(pty.boardSide, bitRate: bitRate, line: line) }
    self.paced = paced
    let server = SimulatorServer(board: board, transport: paced, faults: faults, waitsForClients: true)
    self.server = server
    let started = Mutex<ContinuousClock.Instant?>(nil)
    let done = serverDone
    let thread = Thread {
      started.withLock { $0 = ContinuousClock.now }
      server.run()
      done.raise()
    }
    thread.name = "sim-server"
    thread.qualityOfService = .userInteractive
    serverThread = thread
    var start: ContinuousClock.Instant?
    ThreadLabels.label("sim-server") {
      thread.start()
      while start == nil {
        usleep(100)
        start = started.withLock { $0 }
      }
    }
    serverStart = start ?? ContinuousClock.now
    let stamps = WriteStampTransport(try Transports.open(path: pty.path, baud: Int(bitRate)), line: line)
    self.stamps = stamps
    let link = try ThreadLabels.label("BoardConnection") { try SerialBoardLink(transport: stamps, rates: .fixed(Int(bitRate))) }
    self.link = link
    let engine = try HapticEngine(link: link, configuration: settings)
    self.engine = engine
    try ThreadLabels.label("HapticEngine") { try engine.start() }
  }

  func now() -> Double { (ContinuousClock.now - serverStart).seconds }
  /// ``now()`` for another thread or task.
  var clock: @Sendable () -> Double {
    let start = serverStart
    return { (ContinuousClock.now - start).seconds }
  }
  func driveLog() -> [SimulatedBoard.DriveChange] { server.snapshot.driveLog }
  func boardSeconds(atRig t: Double) -> Double { trueBoardSeconds(configuration, at: t) }
  func boardCounters() -> (underruns: Int, late: Int, watchdog: Int, badFrames: Int) {
    counters(of: server.snapshot)
  }
  func extraReport() -> String? {
    let counters = server.counters
    return "server: \(counters.overruns) overruns (\(fmt(counters.skipped * 1000, 1)) ms skipped), "
      + "\(counters.bytesIn) bytes in, \(counters.bytesOut) bytes out; line \(Int(bitRate)) bit/s "
      + "(\(fmt(paced.byteTime * 1e6, 1)) µs/byte)"
  }

  func replaceArrivals() -> [(time: Double, bytes: Int, start: Double, seq: UInt8)]? {
    let shift = (paced.origin - serverStart).seconds
    let frequency = Double(configuration.clockFrequency)
    return paced.replaceArrivals.map { ($0.time + shift, $0.bytes, Double($0.startTicks) / frequency, $0.seq) }
  }

  func replaceWrites() -> [(time: Double, seq: UInt8)]? {
    stamps.replaceWrites.map { (($0.time - serverStart).seconds, $0.seq) }
  }

  func close() {
    engine.close()
    server.stop()
    _ = serverDone.wait(timeout: 2)
    paced.close()
  }
}

/// The served board alone on a pty with a client that holds the port open and sends nothing
/// (the CPU baseline of the pty setup).
final class IdleServer {
  let pty: PseudoTerminal
  let paced: PacedTransport
  let server: SimulatorServer
  let client: any ByteTransport
  private let done = Flag()

  init(_ configuration: SimulatorConfiguration, bitRate: Double = 1_000_000) throws {
    let pty = try PseudoTerminal()
    self.pty = pty
    let line = LineWrites()
    let paced = ThreadLabels.label("pace-writer") { PacedTransport(pty.boardSide, bitRate: bitRate, line: line) }
    self.paced = paced
    let server = SimulatorServer(board: SimulatedBoard(configuration: configuration), transport: paced, waitsForClients: true)
    self.server = server
    client = try Transports.open(path: pty.path, baud: Int(bitRate))
    let done = self.done
    let thread = Thread {
      server.run()
      done.raise()
    }
    thread.name = "sim-server"
    thread.qualityOfService = .userInteractive
    ThreadLabels.label("sim-server") { thread.start() }
  }

  func close() {
    server.stop()
    _ = done.wait(timeout: 2)
    client.close()
    paced.close()
  }
}

/// A simulated board's underruns, late batches, watchdog stops and bad frames.
func counters(of board: SimulatedBoard) -> (underruns: Int, late: Int, watchdog: Int, badFrames: Int) {
  (board.status.totalUnderruns, board.status.totalLateSegments, board.counters.watchdogStops, board.counters.badFrames)
}
