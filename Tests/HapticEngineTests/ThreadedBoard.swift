import Foundation
import HapticCore
import HapticRenderer
import HapticSimulator
import HapticTransport
import HapticWire

@testable import HapticEngine

/// The threaded link double: the simulator served in real time by its own thread on the board
/// side of a pseudo-terminal, and a ``SerialBoardLink`` opening the other side, as `hapticctl
/// send --port` talks to `sim serve`. Real threads (the server's, the link's reader, the
/// engine's loop, the test's), a real byte pipe (writes that block on a full terminal), and the
/// board's drive log and link counters to check what arrived.
final class ThreadedBoard: Sendable {
  let terminal: PseudoTerminal
  let server: SimulatorServer
  private let done = DispatchSemaphore(value: 0)

  init(profile: BoardProfile = .simLRA) throws {
    terminal = try PseudoTerminal()
    var board = SimulatedBoard(configuration: SimulatorConfiguration(profile: profile))
    board.logsDrive = true
    server = SimulatorServer(board: board, transport: terminal.boardSide, waitsForClients: true)
    let thread = Thread { [server, done] in
      server.run()
      done.signal()
    }
    thread.name = "ThreadedBoard server"
    thread.start()
  }

  /// A link to the board over the port, as the CLI opens it; with `writeDelay`, every write
  /// of the host's waits that long first (``SlowWriteTransport``).
  func link(writeDelay: Double = 0) throws -> SerialBoardLink {
    let port = try Transports.open(path: terminal.path, baud: 115_200)
    return try SerialBoardLink(transport: writeDelay > 0 ? SlowWriteTransport(port, delay: writeDelay) : port)
  }

  /// Stops the server and closes its side.
  func close() {
    server.stop()
    done.wait()
    terminal.boardSide.close()
  }

  /// The board now: drive log, counters, link statistics.
  var board: SimulatedBoard { server.snapshot }

  /// The drive log in board seconds (the engine's time base), per channel 0.
  func driveLog(channel: Int = 0) -> [(time: Double, level: Int)] {
    let board = self.board
    let frequency = Double(board.configuration.clockFrequency)
    return board.driveLog.filter { $0.channel == channel }.map {
      (Double(board.boardTicks(at: $0.time)) / frequency, $0.level)
    }
  }

  /// Board-second spans within `window` where the drive was not 0 (the level at the window's
  /// start included), longest first.
  func driveSpans(in window: ClosedRange<Double>, log: [(time: Double, level: Int)]) -> [ClosedRange<Double>] {
    var spans: [ClosedRange<Double>] = []
    var level = log.last { $0.time <= window.lowerBound }?.level ?? 0
    var since = window.lowerBound
    for change in log where change.time > window.lowerBound && change.time <= window.upperBound {
      if level != 0 && change.level == 0 { spans.append(since...change.time) }
      if level == 0 && change.level != 0 { since = change.time }
      level = change.level
    }
    if level != 0 { spans.append(since...window.upperBound) }
    return spans.sorted { $0.upperBound - $0.lowerBound > $1.upperBound - $1.lowerBound }
  }
}

/// A port whose every write takes `delay` before its bytes go out, as a USB adapter's latency or
/// a writer preempted between deciding to send and sending: the time between a frame being
/// numbered and its bytes reaching the line, which a real port has and a pseudo-terminal
/// hardly does. Concurrent writes wait at the same time, so whatever order they are not kept
/// in shows.
final class SlowWriteTransport: ByteTransport {
  let inner: any ByteTransport
  let delay: Double
  var name: String { inner.name }

  init(_ inner: any ByteTransport, delay: Double) {
    self.inner = inner
    self.delay = delay
  }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    usleep(UInt32(delay * 1_000_000))
    try inner.write(bytes)
  }

  func read(timeout: Double) throws(TransportError) -> [UInt8] { try inner.read(timeout: timeout) }
  func close() { inner.close() }
}

extension ThreadedBoard {
  /// `inner` with every send waiting up to `delay` (at random) before the link numbers the
  /// message — a sending thread preempted between rendering a batch and handing it over — and
  /// the sends of the thread named `slowThread.name` exactly `slowThread.delay` (a thread that
  /// stalls for a while). Without one ordered path per board, a batch rendered before another
  /// thread's change can then reach the board after it.
  static func delayed(
    _ inner: any BoardLink, delay: Double, slowThread: (name: String, delay: Double)? = nil
  ) -> WrappedLink {
    let slowName = slowThread?.name
    let slowDelay = slowThread?.delay ?? 0
    return WrappedLink(inner, extraLead: delay) {
      if let slowName, Thread.current.name == slowName {
        usleep(UInt32(slowDelay * 1_000_000))
      } else {
        usleep(UInt32.random(in: 0...UInt32(delay * 1_000_000)))
      }
    }
  }
}
