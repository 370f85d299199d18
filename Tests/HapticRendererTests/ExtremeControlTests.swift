import HapticCore
import HapticRenderer
import Testing

/// Control curves between finite points more than the largest Double apart (±1.8e308): the
/// slope between them is infinite, and at a point's own time ∞ × 0 made the control NaN, which
/// trapped the renderer converting a NaN frequency to a table index. NeverTrapTests found it
/// with a random seed; this pins the case.
@Suite struct ExtremeControlTests {
  static let pattern = HapticPattern(
    events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: 0.2,
        parameters: [EventParameter(.hapticIntensity, 0.8), EventParameter(.hapticSharpness, 0.5)]),
      HapticEvent(.hapticTransient, time: 0.05, parameters: [EventParameter(.hapticIntensity, 1)]),
    ],
    curves: [
      ParameterCurve(
        .hapticSharpnessControl, time: 0.05,
        controlPoints: [.init(time: 0, value: .greatestFiniteMagnitude), .init(time: 0.1, value: -.greatestFiniteMagnitude)]),
      ParameterCurve(
        .hapticIntensityControl, time: 0.02,
        controlPoints: [.init(time: 0, value: -.greatestFiniteMagnitude), .init(time: 0.1, value: .greatestFiniteMagnitude)]),
    ])

  @Test("A curve between ±1.8e308 renders (every frame finite) on every built-in board")
  func rendersWithoutTrapping() throws {
    #expect(Self.pattern.problem == nil, "a playable pattern")
    for profile in BoardProfile.builtIn {
      var render = try ChannelRender(pattern: Self.pattern, profile: profile)
      let (frames, _) = render.collect()
      #expect(frames.count >= 200, "\(profile.id)")
      #expect(frames.allSatisfy { abs($0.level) <= max(profile.maxLevel, -profile.minLevel) }, "\(profile.id)")
    }
  }

  @Test("At a control point's own time the curve's value is the point's, never NaN")
  func valueAtThePoint() {
    for curve in Self.pattern.curves {
      let start = curve.controlPoints[0]
      #expect(curve.value(at: curve.time + start.time) == start.value, "\(curve.id)")
      #expect(!curve.value(at: curve.time + 0.05).isNaN, "\(curve.id)")
    }
  }
}
