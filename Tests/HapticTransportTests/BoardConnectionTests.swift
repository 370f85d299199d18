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

  @Test("With drive queued it heartbeats after half the watchdog, until a watchdog after the drive has played")
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
    // 300 ms with a 100 ms watchdog: one every 50 ms (5 or 6), less clock-query traffic; not
    // one every 25 ms (11 or 12) as before: between refills 40 ms apart, that sent one each.
    #expect((4...6).contains(during), "\(during) heartbeats while the drive played")
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

/// The reader of a connection over a port whose reads a send can interrupt (a pseudo-terminal's
/// `TTYTransport`): on an idle board it waits up to a second, and a send or a close wakes it.
@Suite("Board connection: the idle reader", .serialized)
struct IdleReaderTests {
  /// A connection without clock sync (no queries: the idle reader waits the whole second) to a
  /// scripted board over a pty, once its first frame is acknowledged and the reader has gone
  /// back to waiting.
  static func idleConnection() throws -> (BoardConnection, ScriptedBoard, PseudoTerminal) {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities())
    let host = try Transports.open(path: pty.path, baud: 1_000_000)
    #expect(host.interruptsReads, "a pty's reads can be interrupted")
    let connection = BoardConnection(transport: host, clockFrequency: nil)
    try connection.send(.setWatchdog(milliseconds: 100))
    let deadline = Date().addingTimeInterval(2)
    while !board.receivedMessages.contains(.setWatchdog(milliseconds: 100)), Date() < deadline { usleep(2_000) }
    // Its acknowledgement (the board answers at once) and the reader back to waiting.
    usleep(200_000)
    return (connection, board, pty)
  }

  @Test("A frame sent while the reader waits long is resent after the timeout, not when the wait ends")
  func sendWakesTheReader() throws {
    let (connection, board, pty) = try Self.idleConnection()
    defer {
      connection.close(stopDrive: false)
      board.stop()
      pty.boardSide.close()
    }
    board.silence()
    let seen = board.received, sent = Date()
    try connection.send(.setWatchdog(milliseconds: 150))
    while board.received < seen + 2 && Date().timeIntervalSince(sent) < 1.5 { usleep(2_000) }
    let resent = Date().timeIntervalSince(sent)
    // The retransmission timeout is 25 ms; an unwoken reader would resend about 0.8 s later.
    #expect(board.received >= seen + 2 && resent < 0.5, "the lost frame was resent \(resent) s after the send")
  }

  @Test("Closing an idle connection does not wait for the reader's long wait to end")
  func closeWakesTheReader() throws {
    let (connection, board, pty) = try Self.idleConnection()
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let closing = Date()
    connection.close(stopDrive: false)
    let took = Date().timeIntervalSince(closing)
    #expect(took < 0.5, "close took \(took) s (the reader waits up to 1 s)")
  }
}

final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [BoardConnection.Event] = []
  func add(_ event: BoardConnection.Event) { lock.withLock { events.append(event) } }
  var all: [BoardConnection.Event] { lock.withLock { events } }
}
