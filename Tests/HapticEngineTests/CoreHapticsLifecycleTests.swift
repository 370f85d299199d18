import Foundation
import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticLocks
import Testing

@testable import HapticEngine

/// Core Haptics' lifecycle as the tutorials use it, in real time on the in-process simulator
/// (issue 18): stop after the last sound, restarts, handlers, engines dropped without close().
@Suite(.serialized) struct CoreHapticsLifecycleTests {
  /// A real-time simulated board that logs its drive.
  static func realTimeEngine(profile: BoardProfile = .simLRA) throws -> (HapticEngine, SimulatorBoardLink) {
    let link = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: profile), clock: .realTime, logsDrive: true)
    return (try HapticEngine(link: link), link)
  }

  /// Waits up to `seconds` for `condition`.
  static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(1_000)
    }
    return condition()
  }

  @Test("start → an immediate transient → stop(completionHandler:) plays it, then calls the handler (20 of 20)")
  func stopLetsTheTransientPlay() throws {
    for attempt in 0..<20 {
      let (engine, link) = try Self.realTimeEngine()
      try engine.start()
      let player = try engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
      try player.start(atTime: 0)
      let done = Recorder<Bool>()
      engine.stop { error in done.append(error == nil) }
      #expect(Self.eventually(1) { !done.all.isEmpty }, "attempt \(attempt): the handler was not called")
      #expect(done.all == [true])
      let driven = link.snapshot.driveLog.filter { $0.level != 0 }
      #expect(!driven.isEmpty, "attempt \(attempt): the transient never reached the drive")
      #expect(!engine.isRunning)
      #expect(Self.eventually(0.2) { link.snapshot.driveLog.last?.level == 0 }, "the drive ends at 0")
      // Stopped after the brake, not in it: the last drive before the end was a brake's or
      // the burst's, and the actuator was at rest when the board stopped.
      engine.close()
      withExtendedLifetime(player) {}
    }
  }

  @Test("stop(completionHandler:) on a stopped engine calls the handler at once")
  func stopWhenStopped() throws {
    let (engine, _) = try Self.realTimeEngine()
    defer { engine.close() }
    let done = Recorder<Bool>()
    engine.stop { error in done.append(error == nil) }
    #expect(Self.eventually(1) { done.all == [true] })
  }

  @Test("Restarting a stopped advanced player: one completion per run, never early (200 restarts)", .timeLimit(.minutes(2)))
  func restartsCompleteOnce() throws {
    let (engine, _) = try Self.realTimeEngine()
    try engine.start()
    defer { engine.close() }
    let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.continuous(1)]))
    let completions = Recorder<Int>()
    let run = Locked(0)
    player.completionHandler = { _ in completions.append(run.withLock { $0 }) }
    var wrong = 0
    for index in 1...200 {
      run.withLock { $0 = index }
      try player.start(atTime: 0)
      usleep(UInt32(1_000 + (index % 5) * 700))
      // Nothing may complete between a start and its stop.
      if completions.all.contains(index) { wrong += 1 }
      try player.stop(atTime: 0)
      if !Self.eventually(0.5, { completions.all.contains(index) }) { wrong += 1 }
    }
    #expect(wrong == 0, "\(wrong) wrong or missing completions")
    #expect(completions.all == Array(1...200), "exactly one completion per run, in order")
  }

  @Test("Several notifyWhenPlayersFinished handlers are all called, in order")
  func everyFinishedHandlerRuns() throws {
    let harness = try EngineHarness()
    let player = try harness.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(0.05)]))
    try player.start(atTime: 0)
    harness.run(0.01)
    let calls = Recorder<Int>()
    harness.engine.notifyWhenPlayersFinished { _ in calls.append(1); return .leaveEngineRunning }
    harness.engine.notifyWhenPlayersFinished { _ in calls.append(2); return .leaveEngineRunning }
    harness.run(0.2)
    #expect(calls.all == [1, 2])
    #expect(harness.engine.isRunning)
  }

  @Test("sendParameters values do not survive a restart")
  func liveControlsResetOnRestart() throws {
    let harness = try EngineHarness(profile: .unoDRV2605L)
    let player = try harness.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(0.3)]))
    try player.start(atTime: 0)
    harness.run(0.05)
    let full = harness.level(at: harness.link.hostNow)
    try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)])
    harness.run(0.05)
    let reduced = harness.level(at: harness.link.hostNow)
    #expect(reduced < full)
    try player.stop(atTime: 0)
    harness.run(0.05)
    try player.start(atTime: 0)
    harness.run(0.05)
    #expect(harness.level(at: harness.link.hostNow) == full, "the restart plays the pattern as written")
  }

  @Test("An engine dropped without close() frees its loop thread", .timeLimit(.minutes(1)))
  func droppedEngineFreesThreads() throws {
    // The engines' own loop threads (other suites run engines in parallel, so the process's
    // thread count would not tell).
    var loops: [HapticEngine.LoopThread] = []
    for _ in 0..<5 {
      let (engine, _) = try Self.realTimeEngine()
      try engine.start()
      let player = try engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
      try player.start(atTime: 0)
      usleep(30_000)
      let loop = try #require(engine.state.withLock { $0.loop })
      #expect(!loop.hasEnded)
      loops.append(loop)
      withExtendedLifetime(player) {}
    }
    #expect(Self.eventually(2) { loops.allSatisfy(\.hasEnded) }, "loop threads left behind")
  }

  @Test("start() from the stopped handler (idle timeout) leaves one loop thread", .timeLimit(.minutes(1)))
  func restartFromTheStoppedHandler() throws {
    let link = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: .simLRA), clock: .realTime)
    var configuration = HapticEngine.Configuration()
    configuration.idleTimeout = 0.05
    let engine = try HapticEngine(link: link, configuration: configuration)
    defer { engine.close() }
    engine.isAutoShutdownEnabled = true
    let restarts = Recorder<Bool>()
    let loops = Recorder<HapticEngine.LoopThread>()
    engine.stoppedHandler = { [weak engine] reason in
      guard reason == .idleTimeout, let engine, restarts.all.count < 3 else { return }
      restarts.append((try? engine.start()) != nil)
      if let loop = engine.state.withLock({ $0.loop }) { loops.append(loop) }
    }
    try engine.start()
    let first = try #require(engine.state.withLock { $0.loop })
    #expect(Self.eventually(3) { restarts.all.count == 3 })
    #expect(restarts.all == [true, true, true])
    // Every loop but the last one has ended (the last stopped on the final idle timeout).
    let all = [first] + loops.all
    #expect(all.count == 4)
    #expect(Self.eventually(1) { all.dropLast().allSatisfy(\.hasEnded) }, "extra loop threads")
  }
}
