import Foundation
import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticLocks
import HapticRenderer
import HapticServer
import HapticSimulator
import HapticTransport

/// A hub serving a board over the real serial path: a real-time simulated board on the board
/// side of a pseudo-terminal, the hub's engine on a ``SerialBoardLink`` to the other side
/// (mirrored, as `hapticctl serve --port` opens it), and the host's writes able to stall as a
/// stalled server's would.
final class SerialServedBoard: Sendable {
  /// The host's side of the port; while ``stalled`` is set every write waits, as in a server
  /// process that does not run (nothing it sends reaches the board, heartbeats included).
  final class StallingTransport: ByteTransport, Sendable {
    let inner: any ByteTransport
    let stalled = Locked(false)

    init(_ inner: any ByteTransport) { self.inner = inner }

    var name: String { inner.name }
    func read(timeout: Double) throws(TransportError) -> [UInt8] { try inner.read(timeout: timeout) }
    func close() { inner.close() }
    func write(_ bytes: [UInt8]) throws(TransportError) {
      while stalled.withLock({ $0 }) { usleep(1_000) }
      try inner.write(bytes)
    }
  }

  let terminal: PseudoTerminal
  /// The board's side: the simulated board, served in real time.
  let server: SimulatorServer
  let port: StallingTransport
  let hub = BoardHub()
  let id: String
  private let done = DispatchSemaphore(value: 0)

  /// Serves `profile`'s simulated board; the engine's lookahead is at least `lookahead`.
  init(profile: BoardProfile = .simLRA, lookahead: Double = 0.030) throws {
    terminal = try PseudoTerminal()
    server = SimulatorServer(board: SimulatedBoard(configuration: SimulatorConfiguration(profile: profile)), transport: terminal.boardSide)
    let thread = Thread { [server, done] in
      server.run()
      done.signal()
    }
    thread.start()
    port = StallingTransport(try Transports.open(path: terminal.path, baud: 115_200))
    let link = MirroredBoardLink(try SerialBoardLink(transport: port))
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = lookahead
    let engine = try HapticEngine(link: link, configuration: configuration)
    try engine.start()
    id = hub.add(engine, link: link, profile: link.profile, source: terminal.path)
  }

  /// Closes the hub (boards stopped) and the board.
  func close() {
    hub.close()
    server.stop()
    done.wait()
    terminal.boardSide.close()
  }

  /// A continuous event of intensity 1 for `seconds`.
  static func held(_ seconds: Double) -> HapticPattern {
    HapticPattern(events: [
      HapticEvent(.hapticContinuous, time: 0, duration: seconds, parameters: [EventParameter(.hapticIntensity, 1)])
    ])
  }
}
