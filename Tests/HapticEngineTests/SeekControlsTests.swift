import HapticCore
import HapticEngineSimulator
import Testing

@testable import HapticEngine

/// A seek into a pattern whose parameter curves began before the offset (docs/semantics.md
/// §13.4): the curve in force carries over from its value there, and the player plays what lies
/// after the offset and finishes. A curve shifted to a negative time used to leave the player
/// with nothing to render, playing silence forever (`send --seek 12` of the 15 s corpus pattern
/// never returned).
@Suite struct SeekControlsTests {
  /// A 2 s continuous event under an intensity curve 1 → 0.2 over 2 s, and a transient at 1.5 s.
  static let pattern = HapticPattern(
    events: [EngineHarness.continuous(2, at: 0), EngineHarness.transient(at: 1.5)],
    curves: [
      ParameterCurve(
        .hapticIntensityControl, time: 0,
        controlPoints: [.init(time: 0, value: 1), .init(time: 2, value: 0.2)])
    ])

  @Test("The excerpt from 1 s: the curve continues from its value there, every time ≥ 0")
  func excerpt() throws {
    let (parameters, curves) = PatternControls.excerpt(Self.pattern, from: 1, scale: 1)
    #expect(parameters.isEmpty)
    let curve = try #require(curves.first)
    #expect(curves.count == 1 && curve.time == 0)
    #expect(curve.controlPoints.map(\.time) == [0, 1])
    #expect(abs(curve.controlPoints[0].value - 0.6) < 1e-12 && curve.controlPoints[1].value == 0.2)
    #expect(HapticPattern(events: [], parameters: parameters, curves: curves).problem == nil)
  }

  @Test("A curve over before the offset, a later step and a later curve: a step in force, later entries shifted")
  func excerptMixed() {
    let pattern = HapticPattern(
      events: [],
      parameters: [
        DynamicParameter(.hapticSharpnessControl, value: 0.4, time: 0.5),
        DynamicParameter(.hapticSharpnessControl, value: -0.2, time: 3),
      ],
      curves: [
        ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 1), .init(time: 1, value: 0.5)]),
        // Its time lies before the offset, its first point after: it keeps its point times.
        ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: [.init(time: 2, value: 0.8), .init(time: 3, value: 0.1)]),
      ])
    let (parameters, curves) = PatternControls.excerpt(pattern, from: 2, scale: 0.5)
    #expect(
      parameters.map { [$0.id.rawValue, "\($0.value)", "\($0.time)"] }
        == [
          ["HapticIntensityControl", "0.5", "0.0"], ["HapticSharpnessControl", "0.4", "0.0"],
          ["HapticSharpnessControl", "-0.2", "0.5"],
        ])
    #expect(curves.map(\.time) == [0] && curves.first?.controlPoints.map(\.time) == [0.5, 1])
  }

  @Test("A seek into the curve plays the transient after the offset and finishes")
  func seekFinishes() throws {
    let h = try EngineHarness()
    h.run(0.05)
    let player = try h.engine.makeAdvancedPlayer(with: Self.pattern)
    let finished = Recorder<Bool>()
    player.completionHandler = { error in finished.append(error == nil) }
    try player.start()
    h.run(0.2)
    let seekAt = h.link.hostNow
    try player.seek(toOffset: 1)
    h.run(1.5)
    // The continuous event under way is skipped; the transient at 1.5 s plays 0.5 s later.
    let onset = try #require(h.onset(after: seekAt + 0.02), "the transient played")
    #expect(abs(onset - seekAt - 0.5) < 0.01)
    #expect(finished.all == [true], "the player finished")
  }
}
