public import HapticCore

/// Deterministic patterns shared by the simulator benchmarks and the engine measurements.
public enum Workloads {
  /// Ten seconds of mixed drive: every 0.5 s a 0.3 s continuous event (attack 0.05 s, release
  /// 0.1 s; intensity and sharpness vary from event to event) followed by three transients
  /// 50 ms apart; an intensity-control curve every second (1 → 0.4 → 1) and a
  /// sharpness-control curve every 2 s (0 → +0.3 → 0). 20 continuous events, 60 transients,
  /// the last drive ends at 9.95 s.
  public static func tenSeconds() -> HapticPattern {
    var events: [HapticEvent] = []
    for i in 0..<20 {
      let t = Double(i) * 0.5
      events.append(
        HapticEvent(
          .hapticContinuous, time: t, duration: 0.3,
          parameters: [
            EventParameter(.hapticIntensity, 0.5 + 0.025 * Double(i)),
            EventParameter(.hapticSharpness, 0.2 + 0.03 * Double(i % 10)),
            EventParameter(.attackTime, 0.05), EventParameter(.releaseTime, 0.1),
          ]))
      for k in 0..<3 {
        events.append(
          HapticEvent(
            .hapticTransient, time: t + 0.35 + 0.05 * Double(k),
            parameters: [
              EventParameter(.hapticIntensity, 0.6 + 0.2 * Double(k)),
              EventParameter(.hapticSharpness, 0.3 + 0.3 * Double(k)),
            ]))
      }
    }
    var curves: [ParameterCurve] = (0..<10).map { s in
      ParameterCurve(
        .hapticIntensityControl, time: Double(s),
        controlPoints: [.init(time: 0, value: 1), .init(time: 0.5, value: 0.4), .init(time: 1, value: 1)])
    }
    curves += (0..<5).map { s in
      ParameterCurve(
        .hapticSharpnessControl, time: Double(2 * s),
        controlPoints: [.init(time: 0, value: 0), .init(time: 1, value: 0.3), .init(time: 2, value: 0)])
    }
    return HapticPattern(events: events, curves: curves)
  }

  /// Ten seconds of continuous drive only (for the CPU measurement: the engine streams for the
  /// whole time): ten 1 s continuous events back to back, each under an intensity curve
  /// (1 → 0.3 → 1) and a sharpness curve (0 → 0.4), as a game's engine rumble would.
  public static func tenSecondsContinuous() -> HapticPattern {
    let events = (0..<10).map { i in
      HapticEvent(
        .hapticContinuous, time: Double(i), duration: 1,
        parameters: [
          EventParameter(.hapticIntensity, 0.9), EventParameter(.hapticSharpness, 0.3 + 0.04 * Double(i)),
          EventParameter(.attackTime, 0.02), EventParameter(.releaseTime, 0.02),
        ])
    }
    var curves: [ParameterCurve] = (0..<10).map { s in
      ParameterCurve(
        .hapticIntensityControl, time: Double(s),
        controlPoints: [
          .init(time: 0, value: 1), .init(time: 0.3, value: 0.3), .init(time: 0.7, value: 0.8),
          .init(time: 1, value: 1),
        ])
    }
    curves += (0..<10).map { s in
      ParameterCurve(
        .hapticSharpnessControl, time: Double(s),
        controlPoints: [.init(time: 0, value: 0), .init(time: 1, value: 0.4)])
    }
    return HapticPattern(events: events, curves: curves)
  }

  /// One transient at 0 (intensity 1, sharpness 0.5).
  public static func oneTransient() -> HapticPattern {
    HapticPattern(events: [
      HapticEvent(
        .hapticTransient, time: 0,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)])
    ])
  }
}
