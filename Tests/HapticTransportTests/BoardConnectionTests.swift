import Foundation
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

@Suite("Board connection", .serialized)
struct BoardConnectionTests {
  @Test("An idle connection sends no heartbeat (the board has nothing for its watchdog to stop) and syncs the clock")
  func idleSendsNoHeartbeat() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(), driftPPM: 100)
    defer { board.stop() }
    let connection = BoardConnection(transport: host, clockFrequency: 1_000_000)
    usleep(600_000)
    let heartbeats = board.receivedMessages.filter { $0 == .heartbeat }.count
    #expect(heartbeats == 0, "\(heartbeats) heartbeats")
    let sync = try #require(connection.clockSync)
    #expect(sync.isSynchronized)
    #expect(abs(sync.offset(atHost: connection.now) - 5) < 0.01)
    connection.close()
    #expect(board.receivedMessages.last == .stop(channels: 0xFF), "close stops the drive")
  }

  @Test("With drive queued it heartbeats within a quarter of the watchdog, until a watchdog after the drive has played")
  func heartbeatsWhileDriveIsQueued() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    var configuration = BoardConnection.Configuration()
    configuration.ticksPerFrame = 1_000
    let connection = BoardConnection(transport: host, clockFrequency: 1_000_000, configuration: configuration)
    defer { connection.close() }
    let deadline = Date().addingTimeInterval(2)
    while connection.clockSync?.isSynchronized != true && Date() < deadline { usleep(5_000) }
    let sync = try #require(connection.clockSync)
    // 300 ms of drive from 20 ms ahead.
    let start = UInt64(sync.boardTicks(atHost: connection.now + 0.020))
    let batch = SegmentBatch(
      channel: 0, startTime: UInt32(truncatingIfNeeded: start), levelBytes: 1,
      segments: [SegmentBatch.Segment(frames: 300, startLevel: 60, endLevel: 60, startFrequency: 0, endFrequency: 0)])
    let before = board.receivedMessages.filter { $0 == .heartbeat }.count
    try connection.send(.queueSegments(batch))
    usleep(300_000)
    let during = board.receivedMessages.filter { $0 == .heartbeat }.count - before
    // 300 ms with a 100 ms watchdog: one every 25 ms, less clock-query traffic.
    #expect(during >= 8, "\(during) heartbeats while the drive played")
    // The drive ends 320 ms after the send; a watchdog (100 ms) later they stop.
    usleep(200_000)
    let after = board.receivedMessages.filter { $0 == .heartbeat }.count
    usleep(300_000)
    #expect(board.receivedMessages.filter { $0 == .heartbeat }.count == after, "heartbeats after the drive had played")
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
