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
  /// The board events published, in order.
  final class Events: Sendable {
    let list = Locked<[(event: String, message: String)]>([])
    func named(_ name: String) -> [String] { list.withLock { $0 }.filter { $0.event == name }.map(\.message) }
  }

  @Test("A server that stalls 0.4 s while a board drives: its watchdog stops the drive, and the clients hear a watchdog event, once")
  func stallIsReported() async throws {
    // A lookahead longer than the watchdog time, as on a lossy line (a clean line's 30 ms
    // queue would run dry first: an underrun, not a watchdog stop).
    let served = try SerialServedBoard(lookahead: 0.300)
    defer { served.close() }
    let (hub, id, server) = (served.hub, served.id, served.server)
    let (subscription, stream) = hub.events.subscribe()
    let events = Events()
    let listener = Task {
      for await event in stream {
        if case .board(_, let name, let message) = event { events.list.withLock { $0.append((name, message)) } }
      }
    }
    defer {
      hub.events.unsubscribe(subscription)
      listener.cancel()
    }
    _ = try hub.play(SerialServedBoard.held(4), on: id)
    // 1.5 s of drive with the server running: status asked every second, no watchdog.
    try await Task.sleep(for: .milliseconds(1_500))
    #expect(events.named("watchdog").isEmpty, "\(events.named("watchdog"))")
    #expect(server.snapshot.counters.watchdogStops == 0)
    served.port.stalled.withLock { $0 = true }
    try await Task.sleep(for: .milliseconds(400))
    served.port.stalled.withLock { $0 = false }
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
