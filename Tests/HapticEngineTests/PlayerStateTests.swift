import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// Player state that must survive: finished notifications, settings across a restart, live
/// controls across a seek.
@Suite struct PlayerStateTests {
  @Test func playersFinishedFiresAtOnceWhenIdleAndForPlainPlayers() async throws {
    let h = try EngineHarness()
    h.run(0.05)
    let calls = Recorder<String>()
    h.engine.notifyWhenPlayersFinished { _ in
      calls.append("idle")
      return .leaveEngineRunning
    }
    for _ in 0..<200 where calls.all.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
    #expect(calls.all == ["idle"], "nothing plays: called at once")
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0.02)]))
    try player.start()
    h.engine.notifyWhenPlayersFinished { _ in
      calls.append("finished")
      return .leaveEngineRunning
    }
    h.run(0.3)
    #expect(calls.all == ["idle", "finished"], "a player without a completion handler still counts")
    #expect(h.engine.isRunning)
  }

  @Test func rateAndMuteSurviveAStopAndStart() throws {
    let h = try EngineHarness()
    h.run(0.05)
    let pattern = HapticPattern(events: [EngineHarness.transient(at: 0), EngineHarness.transient(at: 0.4)])
    let player = try h.engine.makeAdvancedPlayer(with: pattern)
    player.playbackRate = 2
    h.engine.stop()
    try h.engine.start()
    let started = h.link.hostNow
    try player.start()
    h.run(0.5)
    let first = try #require(h.onset(after: started))
    let second = try #require(h.onset(after: first + 0.05))
    #expect(abs(second - first - 0.2) < 0.002, "rate 2 kept: \(second - first) s")
    player.isMuted = true
    h.engine.stop()
    try h.engine.start()
    let again = h.link.hostNow
    try player.start()
    h.run(0.2)
    #expect(h.onset(after: again) == nil, "mute kept across the restart")
  }

  @Test func liveControlsStayAfterASeek() throws {
    let h = try EngineHarness(profile: .unoDRV2605L)
    h.run(0.05)
    let player = try h.engine.makeAdvancedPlayer(
      with: HapticPattern(events: [EngineHarness.continuous(0.2, at: 0), EngineHarness.continuous(1, at: 0.3)]))
    try player.start()
    h.run(0.1)
    let full = h.level(at: h.link.hostNow)
    try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)])
    h.run(0.05)
    let reduced = h.level(at: h.link.hostNow)
    #expect(reduced < full)
    try player.seek(toOffset: 0.3)
    h.run(0.1)
    #expect(h.level(at: h.link.hostNow) == reduced, "the intensity control still applies after the seek")
  }
}
