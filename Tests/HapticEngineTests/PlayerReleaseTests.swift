import Foundation
import HapticCore
import HapticEngineSimulator
import HapticLocks
import HapticRenderer
import Testing

@testable import HapticEngine

/// Players dropped by their clients (issue 6): what they started plays on and their completion
/// handler runs, then the engine forgets them, so an app that makes a player per tap does not
/// accumulate tracks.
@Suite struct PlayerReleaseTests {
  /// Remembered players and scheduler tracks.
  static func counts(_ engine: HapticEngine) -> (players: Int, tracks: Int) {
    engine.state.withLock { ($0.players.count, $0.scheduler?.tracks.count ?? 0) }
  }

  @Test func aDroppedPlayerPlaysOnThenIsForgotten() throws {
    let h = try EngineHarness()
    h.run(0.05)
    let completions = Recorder<Bool>()
    let started = h.link.hostNow
    do {
      let player = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.continuous(0.1)]))
      player.completionHandler = { error in completions.append(error == nil) }
      try player.start()
    }
    // The player object is gone; its drive is not.
    h.run(0.05)
    #expect(try #require(h.onset(after: started)) - started <= 0.003)
    #expect(h.level(at: started + 0.04) != 0)
    #expect(Self.counts(h.engine).players == 1)
    h.run(0.3)
    #expect(completions.all == [true])
    #expect(Self.counts(h.engine).players == 0)
    #expect(Self.counts(h.engine).tracks == 0)
  }

  @Test func manyDroppedPlayersLeaveNoTracks() throws {
    let h = try EngineHarness()
    h.run(0.05)
    for _ in 0..<50 {
      let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
      try player.start()
      h.run(0.02)
    }
    h.run(0.2)
    #expect(Self.counts(h.engine) == (0, 0))
  }

  /// A player can be deallocated while the engine's lock is held: here it lives only in
  /// another player's completion handler, which the engine replaces under its lock. That must
  /// not deadlock the engine, and the dropped player is forgotten like any other.
  @Test(.timeLimit(.minutes(1))) func aPlayerDroppedUnderTheEngineLockIsForgottenToo() throws {
    let h = try EngineHarness()
    h.run(0.05)
    let first = try h.engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    do {
      let second = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
      first.completionHandler = { _ in _ = second.pattern }
    }
    #expect(Self.counts(h.engine).players == 2)
    first.completionHandler = nil
    h.run(0.1)
    #expect(Self.counts(h.engine).players == 1)
    withExtendedLifetime(first) {}
  }

  @Test func aKeptPlayerIsRemembered() throws {
    let h = try EngineHarness()
    h.run(0.05)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    try player.start()
    h.run(0.3)
    #expect(Self.counts(h.engine).players == 1)
    // Still usable after its pattern ended.
    try player.start()
    h.run(0.1)
    withExtendedLifetime(player) {}
  }
}
