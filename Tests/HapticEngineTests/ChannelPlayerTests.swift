import Foundation
import HapticCore
import HapticEngineSimulator
import HapticLocks
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// Players addressed to channels (issue 16): each plays on its channels only, several run in
/// step on the board clock, and a channel nobody plays stays silent.
@Suite("Players on channels")
struct ChannelPlayerTests {
  /// A board with two LRA channels (as `sim-lra`'s).
  static let dual: BoardProfile = {
    var profile = BoardProfile.simLRA
    profile.id = "sim-lra-dual"
    profile.channels = [profile.channels[0], profile.channels[0]]
    return profile
  }()

  static func onset(_ h: EngineHarness, channel: Int, after t: Double) -> Double? {
    h.firstChange(after: t) { $0.channel == channel && $0.level != 0 }
  }

  @Test("Two players on channels 0 and 1 start on the same frame; each channel plays only its own")
  func twoChannelsInStep() throws {
    let h = try EngineHarness(profile: Self.dual)
    h.run(0.2)
    let a = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(0.3, intensity: 1)]), channels: [0])
    let b = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0, intensity: 0.8)]), channels: [1])
    let at = h.engine.currentTime + 0.05
    try a.start(atTime: at)
    try b.start(atTime: at)
    let before = h.link.hostNow
    h.run(0.5)
    let first = try #require(Self.onset(h, channel: 0, after: before))
    let second = try #require(Self.onset(h, channel: 1, after: before))
    #expect(abs(h.boardSeconds(first) - h.boardSeconds(second)) < Self.dual.framePeriod, "onsets \(first) and \(second)")
    #expect(abs(h.boardSeconds(first) - at) <= 0.001)
    // Channel 1 played a transient only: silent 100 ms after the onset, while channel 0 still drives.
    let later = first + 0.15
    let log = h.link.snapshot.driveLog
    #expect(log.last { $0.channel == 1 && $0.time <= later }?.level == 0)
    #expect(log.last { $0.channel == 0 && $0.time <= later }.map { $0.level != 0 } == true)
  }

  @Test("Settings of players not yet started send the board nothing (a two-channel send's start sent 8 batches in one burst, the last late)")
  func settingsBeforeStartSendNothing() throws {
    let h = try EngineHarness(profile: Self.dual)
    h.run(0.2)
    let a = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.continuous(0.3)]), channels: [0])
    let b = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]), channels: [1])
    /// Segments the scheduler has sent so far.
    func sent() -> Int { h.engine.state.withLock { $0.scheduler?.counters.segments ?? -1 } }
    let before = sent()
    for player in [a, b] {
      player.playbackRate = 1
      player.loopEnabled = false
      player.loopEnd = 0
    }
    h.run(0.05)
    #expect(sent() == before, "idle players' settings sent \(sent() - before) segments")
    // The starts themselves still go out, and play.
    let at = h.engine.currentTime + 0.1
    try a.start(atTime: at)
    try b.start(atTime: at)
    let started = h.link.hostNow
    h.run(0.3)
    #expect(sent() > before)
    #expect(Self.onset(h, channel: 0, after: started) != nil && Self.onset(h, channel: 1, after: started) != nil)
  }

  @Test("One player on both channels drives both alike; a player on no channel or a missing one is refused")
  func channelSets() throws {
    let h = try EngineHarness(profile: Self.dual)
    h.run(0.2)
    let both = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(0.1)]), channels: [1, 0, 1])
    let before = h.link.hostNow
    try both.start()
    h.run(0.3)
    let log = h.link.snapshot.driveLog.filter { $0.time > before }
    #expect(log.filter { $0.channel == 0 }.map(\.level) == log.filter { $0.channel == 1 }.map(\.level))
    #expect(!log.isEmpty)
    for channels in [[], [2], [-1]] {
      #expect(throws: HapticEngineError.self) {
        _ = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(0.1)]), channels: channels)
      }
    }
  }
}
