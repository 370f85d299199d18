import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

@testable import HapticEngine

/// Rate changes keep the pattern's time exactly, and one asked for just before a start does not
/// lose the start (a rig sets its boards' rates ahead of their starts).
@Suite struct RateChangeTests {
  /// Transients at 0, 1 and 2 s.
  static let pattern = ActionOrderTests.pattern

  static func engine() throws -> (HapticEngine, SimulatorBoardLink) {
    let board = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: .simLRA), clock: .virtual, logsDrive: true)
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = 0.150
    let engine = try HapticEngine(link: board, configuration: configuration)
    try engine.start()
    return (engine, board)
  }

  @Test("a rate change asked for before a start the render has passed keeps the start")
  func rateBeforeStart() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: Self.pattern)
    engine.advance(to: 0.1)
    let at = engine.currentTime + 0.100
    try player.start(atTime: at)
    // The render is a lookahead ahead: its head is past the start while the board is not.
    engine.advance(to: 0.15)
    try player.setPlaybackRate(0.9999, atTime: engine.currentTime + 0.010)
    engine.advance(to: 3)
    let onsets = ActionOrderTests.onsets(board)
    #expect(onsets.count == 3, "onsets \(onsets)")
    #expect(abs((onsets.first ?? 0) - at) < 0.0011, "first onset \(onsets.first ?? -1), start \(at)")
  }

  @Test("rate changes mid-pattern keep its time: the transients land where the rates put them, to a frame")
  func rateKeepsTime() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: Self.pattern)
    engine.advance(to: 0.1)
    let at = engine.currentTime + 0.050
    try player.start(atTime: at)
    // 0.3 s at 1, then 0.73 and 1.37 in turn every 37 ms: each change left the pattern up to
    // half a frame off when it was rounded to whole frames (the last transient moved by 9.4 ms).
    var t = at + 0.3
    var pattern = 0.3
    for step in 0..<100 {
      let rate = step % 2 == 0 ? 0.73 : 1.37
      engine.advance(to: (engine.link.hostNow) + (t - engine.currentTime) - 0.05)
      try player.setPlaybackRate(rate, atTime: t)
      t += 0.037
      pattern += 0.037 * rate
      if pattern > 1.8 { break }
    }
    engine.advance(to: 4)
    let onsets = ActionOrderTests.onsets(board)
    #expect(onsets.count == 3, "onsets \(onsets)")
    guard onsets.count == 3 else { return }
    // The transient at pattern 2 s: where the rates put it (the rest at the last rate).
    let last = try #require(player.playbackRate as Double?)
    let expected = t + (2 - pattern) / last
    #expect(abs(onsets[2] - expected) < 0.0011, "transient at 2 s: \(onsets[2]), expected \(expected)")
  }

  @Test("a loop at a rate that does not divide a frame lasts loopPoint / rate per run on average")
  func loopCarries() throws {
    let (engine, board) = try Self.engine()
    let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    player.loopEnabled = true
    player.loopEnd = 0.1234
    player.playbackRate = 0.9
    engine.advance(to: 0.1)
    let at = engine.currentTime + 0.050
    try player.start(atTime: at)
    engine.advance(to: 3)
    let onsets = ActionOrderTests.onsets(board)
    // Runs of 137.1 ms: each rounded up to a whole frame would be 138 ms (0.9 ms a run late).
    #expect(onsets.count >= 18, "onsets \(onsets)")
    for (index, onset) in onsets.enumerated() {
      let expected = at + Double(index) * 0.1234 / 0.9
      #expect(abs(onset - expected) < 0.0011, "run \(index): \(onset), expected \(expected)")
    }
  }
}
