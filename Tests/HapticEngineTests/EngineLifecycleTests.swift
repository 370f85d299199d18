import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// Engine lifecycle on a virtual clock: disconnect, reset, idle shutdown, unsupported boards.
@Suite struct EngineLifecycleTests {
  @Test func disconnectStopsWithAReasonAndFailsPlayers() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let events = Recorder<String>()
    h.engine.stoppedHandler = { events.append("stopped \($0)") }
    let player = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.continuous(5)]))
    player.completionHandler = { error in events.append("player \(error == nil ? "ok" : "error")") }
    try player.start()
    h.run(0.1)
    h.link.disconnect()
    #expect(events.all == ["player error", "stopped boardDisconnected"])
    #expect(!h.engine.isRunning)
    do {
      try player.start()
      Issue.record("a player on a lost board must fail")
    } catch {
      #expect(error.code == .invalidPatternPlayer)
    }
  }

  @Test func boardResetCallsTheResetHandler() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let events = Recorder<String>()
    h.engine.resetHandler = { events.append("reset") }
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(5)]))
    try player.start()
    h.run(0.1)
    h.link.resetBoard()
    h.run(0.05)
    #expect(events.all == ["reset"])
    #expect(!h.engine.isRunning)
    // Recreate and restart, as Core Haptics clients do.
    try h.engine.start()
    let again = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    let t = h.link.hostNow
    try again.start()
    h.run(0.1)
    #expect(h.onset(after: t) != nil)
    #expect(throws: HapticEngineError.self) { try player.start() }
  }

  @Test func idleTimeoutStopsAndTheNextPlayRestarts() throws {
    let h = try EngineHarness { $0.idleTimeout = 0.2 }
    h.engine.isAutoShutdownEnabled = true
    let events = Recorder<HapticEngineStoppedReason>()
    h.engine.stoppedHandler = { events.append($0) }
    h.run(0.3)
    #expect(events.all == [.idleTimeout])
    #expect(!h.engine.isRunning)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    let t = h.link.hostNow
    try player.start()
    #expect(h.engine.isRunning)
    h.run(0.1)
    #expect(h.onset(after: t) != nil)
  }

  @Test func explicitStopDoesNotCallTheStoppedHandler() throws {
    let h = try EngineHarness()
    let events = Recorder<HapticEngineStoppedReason>()
    h.engine.stoppedHandler = { events.append($0) }
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(2)]))
    try player.start()
    h.run(0.1)
    h.engine.stop()
    h.run(0.1)
    #expect(events.all.isEmpty)
    #expect(h.level(at: h.link.hostNow) == 0)
    // Players survive a stop/start.
    try h.engine.start()
    try player.start()
    h.run(0.1)
    #expect(h.level(at: h.link.hostNow) != 0)
  }

  @Test func boardsWithoutAnActuatorAreRefused() throws {
    var board = SimulatorConfiguration(profile: .simLRA)
    board.noActuator = true
    #expect(throws: HapticEngineError.self) { _ = try SimulatorBoardLink(configuration: board, clock: .virtual) }
  }

  @Test func notRunningIsAnAppleCodedError() throws {
    var board = SimulatorConfiguration(profile: .simLRA)
    board.bootCount = 4
    let link = try SimulatorBoardLink(configuration: board, clock: .virtual)
    let engine = try HapticEngine(link: link)
    let player = try engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    do {
      try player.start()
      Issue.record("start on a stopped engine must fail")
    } catch {
      #expect(error.code == .engineNotRunning && error.code.appleValue == -4805)
    }
  }
}
