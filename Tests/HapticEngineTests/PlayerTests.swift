import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// Player operations on a virtual clock (issue 6).
@Suite struct PlayerTests {
  @Test func startAtTimeIsHonouredWithinOneFrameUnderDrift() throws {
    for drift in [-200.0, 200.0] {
      let h = try EngineHarness(driftPPM: drift, clockOffset: 7.3)
      h.run(0.5)
      let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
      let target = h.engine.currentTime + 0.1234
      try player.start(atTime: target)
      h.run(0.3)
      let onset = try #require(h.onset(after: 0))
      let error = h.boardSeconds(onset) - target
      #expect(abs(error) <= 0.001, "drift \(drift) ppm: onset error \(error * 1000) ms")
    }
  }

  @Test func startNowBeginsWithinAFewFramesAndStopEndsTheDrive() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(2)]))
    let started = h.link.hostNow
    try player.start()
    h.run(0.2)
    #expect(try #require(h.onset(after: started)) - started <= 0.003)
    let stopAt = h.link.hostNow
    try player.stop()
    h.run(0.1)
    // Braked, then zero: nothing driven 30 ms after the stop.
    #expect(h.level(at: stopAt + 0.03) == 0)
    #expect(h.level(at: stopAt - 0.01) != 0)
  }

  @Test func sendParametersReachesTheDriveWithinThreeMilliseconds() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(2, intensity: 1)]))
    try player.start()
    h.run(0.3)
    let before = h.level(at: h.link.hostNow)
    let sent = h.link.hostNow
    try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)])
    h.run(0.1)
    let change = try #require(h.firstChange(after: sent) { $0.level != before })
    #expect(change - sent <= 0.003, "latency \((change - sent) * 1000) ms")
    #expect(h.level(at: sent + 0.05) < before)
  }

  @Test func scheduledCurveRampsTheIntensity() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(1)]))
    try player.start()
    h.run(0.2)
    let curve = ParameterCurve(
      .hapticIntensityControl, time: 0,
      controlPoints: [.init(time: 0, value: 1), .init(time: 0.3, value: 0.1)])
    let t0 = h.link.hostNow
    try player.scheduleParameterCurve(curve, atTime: h.engine.currentTime + 0.05)
    h.run(0.5)
    #expect(h.level(at: t0 + 0.04) > h.level(at: t0 + 0.25))
    #expect(h.level(at: t0 + 0.25) > h.level(at: t0 + 0.36) || h.level(at: t0 + 0.36) > 0)
  }

  @Test func pauseHoldsAndResumeContinuesMidEvent() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let player = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.continuous(0.5)]))
    try player.start()
    h.run(0.2)
    let paused = h.link.hostNow
    try player.pause()
    h.run(0.3)
    #expect(h.level(at: paused + 0.05) == 0 && h.level(at: paused + 0.25) == 0)
    let resumed = h.link.hostNow
    try player.resume()
    h.run(0.5)
    // The remaining ~0.3 s of the event plays after the resume, not a fresh 0.5 s.
    let onset = try #require(h.onset(after: resumed))
    #expect(onset - resumed < 0.004)
    let end = try #require(h.firstChange(after: onset + 0.1) { $0.level <= 0 })
    #expect(end - resumed > 0.25 && end - resumed < 0.36, "resumed mid-event, ended \(end - resumed) s later")
  }

  @Test func seekSkipsEventsUnderWayAndPlaysLaterOnes() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let pattern = HapticPattern(events: [EngineHarness.continuous(1, at: 0), EngineHarness.transient(at: 1.2)])
    let player = try h.engine.makeAdvancedPlayer(with: pattern)
    try player.start()
    h.run(0.1)
    let seeked = h.link.hostNow
    try player.seek(toOffset: 0.5)
    h.run(1.0)
    // The continuous event (0…1 s) was under way at 0.5 s: dropped. The transient at 1.2 s
    // plays 0.7 s after the seek.
    let onset = try #require(h.onset(after: seeked + 0.05))
    #expect(abs(onset - seeked - 0.7) < 0.005, "onset \(onset - seeked) s after the seek")
  }

  @Test func loopRepeatsAtLoopEnd() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let player = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    player.loopEnabled = true
    player.loopEnd = 0.1
    let started = h.link.hostNow
    try player.start()
    h.run(0.45)
    let onsets = h.link.snapshot.driveLog.filter { $0.time > started }.reduce(into: [Double]()) { list, change in
      if change.level > 0, list.last.map({ change.time - $0 > 0.05 }) ?? true { list.append(change.time) }
    }
    #expect(onsets.count == 5, "onsets \(onsets)")
    if onsets.count >= 2 { #expect(abs(onsets[1] - onsets[0] - 0.1) < 0.0015) }
  }

  @Test func playbackRateScalesTheTimeline() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let pattern = HapticPattern(events: [EngineHarness.transient(at: 0), EngineHarness.transient(at: 0.4)])
    let player = try h.engine.makeAdvancedPlayer(with: pattern)
    player.playbackRate = 2
    player.playbackRate = -1  // ignored
    #expect(player.playbackRate == 2)
    let started = h.link.hostNow
    try player.start()
    h.run(0.5)
    let first = try #require(h.onset(after: started))
    let second = try #require(h.onset(after: first + 0.05))
    #expect(abs(second - first - 0.2) < 0.002, "second onset \(second - first) s after the first")
  }

  @Test func playersMixAndMuteSilences() throws {
    let h = try EngineHarness(profile: .unoDRV2605L)
    h.run(0.1)
    let quiet = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(1, intensity: 0.4)]))
    let other = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(1, intensity: 0.4)]))
    try quiet.start()
    h.run(0.2)
    let alone = h.level(at: h.link.hostNow)
    try other.start()
    h.run(0.2)
    let mixed = h.level(at: h.link.hostNow)
    #expect(mixed > alone && alone > 0, "two players add in power: \(alone) → \(mixed)")
    h.engine.isMutedForHaptics = true
    h.run(0.1)
    #expect(h.level(at: h.link.hostNow) == 0)
  }

  @Test func completionAndPlayersFinished() throws {
    let h = try EngineHarness()
    h.run(0.1)
    let done = Recorder<String>()
    let player = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0.05)]))
    player.completionHandler = { error in done.append(error == nil ? "completed" : "failed") }
    h.engine.stoppedHandler = { reason in done.append("stopped \(reason)") }
    try player.start()
    // Registered while the player plays: it waits for the end (registered while idle it would
    // fire at once, as Core Haptics does; PlayerStateTests covers that).
    h.engine.notifyWhenPlayersFinished { _ in
      done.append("all finished")
      return .stopEngine
    }
    h.run(0.4)
    #expect(done.all == ["completed", "all finished", "stopped notifyWhenFinished"])
    #expect(!h.engine.isRunning)
    #expect(throws: HapticEngineError.self) { try player.start() }
    do {
      try player.start()
    } catch {
      #expect(error.code.appleValue == -4805)
    }
  }
}
