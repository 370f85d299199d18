import Foundation
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

@Suite("Board connection", .serialized)
struct BoardConnectionTests {
  @Test("An idle connection heartbeats within a quarter of the watchdog and syncs the clock")
  func heartbeats() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(), driftPPM: 100)
    defer { board.stop() }
    let connection = BoardConnection(transport: host, clockFrequency: 1_000_000)
    usleep(600_000)
    let heartbeats = board.receivedMessages.filter { $0 == .heartbeat }.count
    // 600 ms idle with a 100 ms watchdog: one every 25 ms at least, minus clock-query traffic.
    #expect(heartbeats >= 10, "\(heartbeats) heartbeats")
    let sync = try #require(connection.clockSync)
    #expect(sync.isSynchronized)
    #expect(abs(sync.offset(atHost: connection.now) - 5) < 0.01)
    connection.close()
    #expect(board.receivedMessages.last == .stop(channels: 0xFF), "close stops the drive")
  }

  @Test("Messages reach the board in order; a vanished board is reported, not hung on")
  func disconnect() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    let events = EventLog()
    let connection = BoardConnection(transport: host, clockFrequency: nil, onEvent: { events.add($0) })
    for n in 0..<20 { try connection.send(.setWatchdog(milliseconds: UInt16(100 + n))) }
    usleep(200_000)
    #expect(board.receivedMessages.filter { if case .setWatchdog = $0 { return true } else { return false } }
      == (0..<20).map { .setWatchdog(milliseconds: UInt16(100 + $0)) })
    board.stop()
    boardSide.close()
    let deadline = Date().addingTimeInterval(2)
    while events.all.isEmpty && Date() < deadline { usleep(5000) }
    #expect(events.all.contains { if case .disconnected = $0 { return true } else { return false } })
    #expect(throws: TransportError.self) { try connection.send(.heartbeat) }
    connection.close()
  }
}

final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [BoardConnection.Event] = []
  func add(_ event: BoardConnection.Event) { lock.withLock { events.append(event) } }
  var all: [BoardConnection.Event] { lock.withLock { events } }
}
