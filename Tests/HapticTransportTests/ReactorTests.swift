import Foundation
import HapticLocks
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

/// A source that records its calls in a shared log: a timer (a window from `earliest` to
/// `latest` seconds after it is armed, once) or a pipe's reading end.
final class RecordingSource: ReactorSource, Sendable {
  let label: String
  let log: Locked<[String]>
  let reactorDescriptor: Int32?
  /// The window to offer (monotonic seconds), until it fires.
  let window = Locked<ReactorWindow?>(nil)
  let fired = Locked<[Double]>([])

  init(_ label: String, log: Locked<[String]>, descriptor: Int32? = nil) {
    self.label = label
    self.log = log
    reactorDescriptor = descriptor
  }

  func reactorWindow() -> ReactorWindow? { window.withLock { $0 } }

  func reactorRead() {
    guard let descriptor = reactorDescriptor else { return }
    var buffer = [UInt8](repeating: 0, count: 64)
    _ = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    log.withLock { $0.append("read \(label)") }
  }

  func reactorFire(readable: Bool) -> Bool {
    window.withLock { $0 = nil }
    fired.withLock { $0.append(MonotonicTime.seconds()) }
    log.withLock { $0.append("fire \(label)\(readable ? " (input)" : "")") }
    return true
  }

  func reactorIdle() { log.withLock { $0.append("idle \(label)") } }
}

@Suite("Reactor: one thread for many links", .serialized)
struct ReactorTests {
  /// Waits up to 2 s for `condition`.
  func wait(_ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(2)
    while !condition() && Date() < deadline { usleep(1_000) }
  }

  @Test("Sources due within each other's windows are served in one wake-up, at the first one's latest")
  func windowsCoalesce() throws {
    let log = Locked<[String]>([])
    let reactor = Reactor(name: "test")
    let a = RecordingSource("a", log: log), b = RecordingSource("b", log: log)
    let now = MonotonicTime.seconds()
    a.window.withLock { $0 = ReactorWindow(earliest: now + 0.020, latest: now + 0.200) }
    b.window.withLock { $0 = ReactorWindow(earliest: now + 0.010, latest: now + 0.040) }
    let tokens = [reactor.add(a), reactor.add(b)]
    defer { for token in tokens { reactor.remove(token) } }
    wait { a.fired.withLock { !$0.isEmpty } && b.fired.withLock { !$0.isEmpty } }
    let (firstA, firstB) = (try #require(a.fired.withLock { $0.first }), try #require(b.fired.withLock { $0.first }))
    // One wake-up served both: b's latest (40 ms) came after a's earliest (20 ms), so a did not
    // wait for its own latest (200 ms).
    #expect(abs(firstA - firstB) < 0.005, "a at \(firstA - now) s, b at \(firstB - now) s")
    #expect(firstA - now < 0.150, "a waited for its own latest: \(firstA - now) s")
    #expect(firstB - now >= 0.010, "b before its earliest: \(firstB - now) s")
  }

  @Test("A wake-up reads every ready port first, serves input before timers, and lets sources send last")
  func wakeUpOrder() throws {
    let log = Locked<[String]>([])
    let reactor = Reactor(name: "test")
    var pipes: [[Int32]] = []
    for _ in 0..<2 {
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      pipes.append(ends)
    }
    defer { for ends in pipes { for end in ends { close(end) } } }
    let p = RecordingSource("p", log: log, descriptor: pipes[0][0])
    let q = RecordingSource("q", log: log, descriptor: pipes[1][0])
    let timer = RecordingSource("t", log: log)
    // A gate holds the thread in its call while both pipes and the timer get ready, so the next
    // wake-up finds all three.
    let gate = GateSource()
    let tokens = [reactor.add(gate), reactor.add(p), reactor.add(q), reactor.add(timer)]
    defer { for token in tokens { reactor.remove(token) } }
    gate.entered.wait()
    timer.window.withLock { $0 = ReactorWindow(earliest: 0, latest: MonotonicTime.seconds() + 0.050) }
    for ends in pipes { #expect(write(ends[1], "x", 1) == 1) }
    reactor.wake()
    gate.release.signal()
    wait { log.withLock { $0.filter { $0.hasPrefix("idle") }.count } >= 3 }
    let first = Array(log.withLock { $0 }.prefix(8))
    #expect(Set(first.prefix(2)) == ["read p", "read q"], "\(first)")
    // Input before the timers: a board's frame is acknowledged before the passes' work (a board
    // polls for the acknowledgement 2 ms after its frame).
    #expect(Set(first.dropFirst(2).prefix(2)) == ["fire p (input)", "fire q (input)"], "\(first)")
    #expect(first.dropFirst(4).first == "fire t", "\(first)")
    #expect(Set(first.dropFirst(5).prefix(3)) == ["idle p", "idle q", "idle t"], "\(first)")
  }

  /// A timer due at once whose first call waits for ``release``, having signalled ``entered``.
  final class GateSource: ReactorSource, Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = Locked(false)
    var reactorDescriptor: Int32? { nil }
    func reactorWindow() -> ReactorWindow? { done.withLock { $0 } ? nil : ReactorWindow(earliest: 0, latest: 0) }
    func reactorFire(readable: Bool) -> Bool {
      guard !done.withLock({ $0 }) else { return true }
      entered.signal()
      release.wait()
      done.withLock { $0 = true }
      return true
    }
  }

  @Test("A removed source is not called again; the thread ends with the last source and comes back with a new one")
  func removeAndRestart() throws {
    let log = Locked<[String]>([])
    let reactor = Reactor(name: "test")
    let busy = RecordingSource("busy", log: log)
    busy.window.withLock { $0 = ReactorWindow(earliest: 0, latest: 0) }
    // Always due: it asks again at once after every call.
    final class Again: ReactorSource, Sendable {
      let calls = Locked(0)
      var reactorDescriptor: Int32? { nil }
      func reactorWindow() -> ReactorWindow? { ReactorWindow(earliest: 0, latest: MonotonicTime.seconds() + 0.001) }
      func reactorFire(readable: Bool) -> Bool {
        calls.withLock { $0 += 1 }
        return true
      }
    }
    let again = Again()
    let token = reactor.add(again)
    wait { again.calls.withLock { $0 } > 20 }
    reactor.remove(token)
    let calls = again.calls.withLock { $0 }
    usleep(50_000)
    #expect(again.calls.withLock { $0 } == calls, "called after its removal")
    wait { !reactor.isRunning }
    #expect(!reactor.isRunning, "the thread outlived its last source")
    let second = reactor.add(busy)
    defer { reactor.remove(second) }
    wait { busy.fired.withLock { !$0.isEmpty } }
    #expect(busy.fired.withLock { $0.count } == 1 && reactor.isRunning)
  }

  @Test("Two boards' links on one reactor: clock sync, messages in order, a lost board reported, a close from its own thread")
  func boardConnections() throws {
    let reactor = Reactor(name: "test")
    var configuration = BoardConnection.Configuration()
    configuration.reactor = reactor
    let ptys = try (0..<2).map { _ in try PseudoTerminal() }
    let boards = ptys.map { ScriptedBoard(transport: $0.boardSide, capabilities: ScriptedBoard.lraCapabilities(), driftPPM: 100) }
    defer { for board in boards { board.stop() } }
    let events = EventLog()
    let closedFromReactor = Locked<Bool?>(nil)
    let holder = Locked<BoardConnection?>(nil)
    let connections = try ptys.enumerated().map { index, pty in
      BoardConnection(
        transport: try Transports.open(path: pty.path, baud: 1_000_000), clockFrequency: 1_000_000, configuration: configuration,
        onEvent: { event in
          events.add(event)
          guard index == 1, let connection = holder.withLock({ $0 }) else { return }
          // A handler on the reactor's thread closes its own link.
          closedFromReactor.withLock { $0 = reactor.isCurrentThread }
          connection.close(stopDrive: false)
        })
    }
    holder.withLock { $0 = connections[1] }
    defer { connections[0].close() }
    wait { connections.allSatisfy { $0.clockSync?.isSynchronized == true } }
    for connection in connections {
      let sync = try #require(connection.clockSync)
      #expect(sync.isSynchronized && abs(sync.offset(atHost: connection.now) - 5) < 0.01)
    }
    for n in 0..<20 { for connection in connections { try connection.send(.setWatchdog(milliseconds: UInt16(100 + n))) } }
    let expected: [WireMessage] = (0..<20).map { .setWatchdog(milliseconds: UInt16(100 + $0)) }
    func watchdogs(_ board: ScriptedBoard) -> [WireMessage] {
      board.receivedMessages.filter { if case .setWatchdog = $0 { return true } else { return false } }
    }
    wait { boards.allSatisfy { watchdogs($0) == expected } }
    for board in boards { #expect(watchdogs(board) == expected) }
    // The second board goes away: reported, and its handler's close does not hang the reactor.
    boards[1].stop()
    ptys[1].boardSide.close()
    wait { closedFromReactor.withLock { $0 } != nil }
    #expect(events.all.contains { if case .disconnected = $0 { return true } else { return false } })
    #expect(closedFromReactor.withLock { $0 } == true)
    // The first board still answers on the same thread.
    try connections[0].send(.setWatchdog(milliseconds: 300))
    wait { boards[0].receivedMessages.contains(.setWatchdog(milliseconds: 300)) }
    #expect(boards[0].receivedMessages.contains(.setWatchdog(milliseconds: 300)))
    #expect(connections[0].statistics.retransmissions == 0)
  }
}
