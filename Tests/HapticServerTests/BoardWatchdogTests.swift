import Foundation
import HapticCore
import HapticEngine
import HapticLocks
import HapticRenderer
import HapticServer
import HapticSimulator
import HapticTransport
import Testing

/// A served board whose watchdog stops its drive is told to the clients as a `watchdog` board
/// event (docs/api.yaml `BoardEvent`): a real-time simulated board on a pseudo-terminal, the
/// hub's engine over the real serial path, and the server's writes held back as a stalled
/// server's would be.
@Suite("Board server: the board's watchdog")
struct BoardWatchdogTests {
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

  /// The board events published, in order.
  final class Events: Sendable {
    let list = Locked<[(event: String, message: String)]>([])
    func named(_ name: String) -> [String] { list.withLock { $0 }.filter { $0.event == name }.map(\.message) }
  }

  @Test("A server that stalls 0.4 s while a board drives: its watchdog stops the drive, and the clients hear a watchdog event, once")
  func stallIsReported() async throws {
    let terminal = try PseudoTerminal()
    let server = SimulatorServer(board: SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA)), transport: terminal.boardSide)
    let serving = Thread { server.run() }
    serving.start()
    defer {
      server.stop()
      terminal.boardSide.close()
    }
    let port = StallingTransport(try Transports.open(path: terminal.path, baud: 115_200))
    let link = try SerialBoardLink(transport: port)
    // A lookahead longer than the watchdog time, as on a lossy line (a clean line's 30 ms
    // queue would run dry first: an underrun, not a watchdog stop).
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = 0.300
    let engine = try HapticEngine(link: link, configuration: configuration)
    try await engine.start()
    let hub = BoardHub()
    let (subscription, stream) = hub.events.subscribe()
    let events = Events()
    let listener = Task {
      for await event in stream {
        if case .board(_, let name, let message) = event { events.list.withLock { $0.append((name, message)) } }
      }
    }
    let id = hub.add(engine, link: link, profile: link.profile, source: terminal.path)
    defer {
      hub.events.unsubscribe(subscription)
      listener.cancel()
      hub.close()
    }
    let held = HapticPattern(events: [
      HapticEvent(.hapticContinuous, time: 0, duration: 4, parameters: [EventParameter(.hapticIntensity, 1)])
    ])
    _ = try hub.play(held, on: id)
    // 1.5 s of drive with the server running: status asked every second, no watchdog.
    try await Task.sleep(for: .milliseconds(1_500))
    #expect(events.named("watchdog").isEmpty, "\(events.named("watchdog"))")
    #expect(server.snapshot.counters.watchdogStops == 0)
    port.stalled.withLock { $0 = true }
    try await Task.sleep(for: .milliseconds(400))
    port.stalled.withLock { $0 = false }
    #expect(server.snapshot.counters.watchdogStops == 1, "the board's watchdog stopped the drive")
    // Told within the next status poll (1 s) and its answer.
    let deadline = Date().addingTimeInterval(3)
    while events.named("watchdog").isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    let told = events.named("watchdog")
    #expect(told.count == 1 && told.first?.contains("100 ms") == true, "\(told)")
    // Once: the board's latch is cleared by the status that reported it.
    try await Task.sleep(for: .milliseconds(1_500))
    #expect(events.named("watchdog").count == 1, "\(events.named("watchdog"))")
  }
}
