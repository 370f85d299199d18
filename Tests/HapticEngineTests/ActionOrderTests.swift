import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

@testable import HapticEngine

/// A player's actions take effect in the order they were given for the same time: a start on a
/// link that has been slow to deliver waits out a lead (so its onset is not cut), and a seek
/// given right after it, "now" as well, used to land before it — on an idle player, where a
/// seek does nothing — and the whole pattern played (`send --seek` over a port, 7 of 12 runs).
@Suite struct ActionOrderTests {
  /// Transients at 0, 1 and 2 s.
  static let pattern = HapticPattern(events: [0.0, 1, 2].map { EngineHarness.transient(at: $0) })

  static func engine() throws -> (HapticEngine, SimulatorBoardLink) {
    let board = try SimulatorBoardLink(
      configuration: SimulatorConfiguration(profile: .simLRA), clock: .virtual, logsDrive: true)
    // Behind a link that reports a slow delivery (20 ms: a start then waits 60 ms,
    // docs/protocol.md §8), as a serial link does after a recovery.
    let engine = try HapticEngine(link: WrappedLink(board, adjust: { $0.deliveryDelay = 0.020 }))
    try engine.start()
    return (engine, board)
  }

  /// Board seconds of the drive's onsets (a non-zero level after at least 50 ms of zero).
  static func onsets(_ board: SimulatorBoardLink) -> [Double] {
    var onsets: [Double] = []
    var lastDrive = -1.0
    for change in board.snapshot.driveLog where change.level != 0 {
      let t = board.boardSeconds(atHost: change.time) ?? 0
      if t - lastDrive > 0.050 { onsets.append(t) }
      lastDrive = t
    }
    return onsets
  }

  @Test("start then seek, both now: only what lies after the offset plays")
  func seekRightAfterStart() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: Self.pattern)
    engine.advance(to: 0.1)
    try player.start()
    try player.seek(toOffset: 1.5)
    let started = try #require(player.startTime)
    engine.advance(to: 3)
    let onsets = Self.onsets(board)
    #expect(onsets.count == 1, "onsets \(onsets)")
    let onset = try #require(onsets.first)
    // The transient at 2 s, 0.5 s after the seek took effect (with the start, not before it).
    #expect(abs(onset - started - 0.5) < 0.005, "onset \(onset), started \(started)")
  }

  @Test("start and seek given the same future time: the seek follows the start")
  func seekAtTheStartsTime() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: Self.pattern)
    engine.advance(to: 0.1)
    let at = engine.currentTime + 0.010
    try player.start(atTime: at)
    try player.seek(toOffset: 1.5, atTime: at)
    engine.advance(to: 3)
    let onsets = Self.onsets(board)
    #expect(onsets.count == 1, "onsets \(onsets)")
  }

  @Test("an action asked for an earlier time still goes first")
  func earlierTimeGoesFirst() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: Self.pattern)
    engine.advance(to: 0.1)
    let now = engine.currentTime
    // A stop at +1.5 s asked first, then a start now: the start is not held back to the stop.
    try player.stop(atTime: now + 1.5)
    try player.start()
    engine.advance(to: 3)
    let onsets = Self.onsets(board)
    #expect(onsets.count == 2, "the transients at 0 and 1 s before the stop: \(onsets)")
  }
}
