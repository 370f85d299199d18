import HapticCore
import Testing

@Suite("Pattern model")
struct ModelTests {
  @Test("Ranges follow Apple's headers")
  func ranges() {
    for id in EventParameterID.allCases {
      let expected: ClosedRange<Double> = (id == .audioPitch || id == .audioPan) ? -1...1 : 0...1
      #expect(id.range == expected, "\(id)")
    }
    #expect(DynamicParameterID.hapticIntensityControl.range == 0...1)
    #expect(DynamicParameterID.audioVolumeControl.range == 0...1)
    #expect(DynamicParameterID.hapticSharpnessControl.range == -1...1)
    #expect(DynamicParameterID.hapticIntensityControl.defaultValue == 1)
    #expect(DynamicParameterID.hapticReleaseTimeControl.defaultValue == 0)
  }

  @Test("Intensity and volume controls multiply, the others add, results clamp")
  func combinationRule() {
    #expect(DynamicParameterID.hapticIntensityControl.apply(control: 0.5, to: 0.8) == 0.4)
    #expect(DynamicParameterID.hapticIntensityControl.apply(control: 1, to: 0) == 0)
    #expect(DynamicParameterID.hapticSharpnessControl.apply(control: 0.5, to: 0.8) == 1)
    #expect(DynamicParameterID.audioPanControl.apply(control: -0.5, to: -0.8) == -1)
    #expect(DynamicParameterID.hapticAttackTimeControl.apply(control: -0.25, to: 0.5) == 0.25)
  }

  @Test("Controls touch their own kind of event; sharpness control skips transients")
  func controlScope() {
    #expect(ControlTimeline.control(for: .hapticSharpness, eventType: .hapticContinuous) == .hapticSharpnessControl)
    #expect(ControlTimeline.control(for: .hapticSharpness, eventType: .hapticTransient) == nil)
    #expect(ControlTimeline.control(for: .hapticIntensity, eventType: .hapticTransient) == .hapticIntensityControl)
    #expect(ControlTimeline.control(for: .audioVolume, eventType: .audioCustom) == .audioVolumeControl)
    #expect(ControlTimeline.control(for: .attackTime, eventType: .audioContinuous) == .audioAttackTimeControl)
    #expect(ControlTimeline.control(for: .attackTime, eventType: .hapticContinuous) == .hapticAttackTimeControl)
  }

  @Test("Curves interpolate linearly, hold before the first and after the last point, step on equal times")
  func curveValues() {
    let curve = ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: [
      .init(time: 0.5, value: 0.2), .init(time: 1.5, value: 1.0), .init(time: 1.5, value: 0.4), .init(time: 2.5, value: 0.0),
    ])
    #expect(curve.value(at: 0) == 0.2)
    #expect(curve.value(at: 1.5) == 0.2)
    #expect(abs(curve.value(at: 2.0) - 0.6) < 1e-12)
    #expect(curve.value(at: 2.5) == 0.4)  // the later of two points at one time wins
    #expect(abs(curve.value(at: 3.0) - 0.2) < 1e-12)
    #expect(curve.value(at: 10) == 0)
    #expect(curve.effectiveStart == 1.5)
    #expect(curve.end == 3.5)
  }

  @Test("The entry that took effect last wins; before any entry the neutral default applies")
  func timelinePrecedence() {
    let first = ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 2, value: 1)])
    let second = ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: [.init(time: 0, value: 0.5), .init(time: 1, value: 0.5)])
    let step = DynamicParameter(.hapticIntensityControl, value: 0.25, time: 3)
    let late = ParameterCurve(.hapticSharpnessControl, time: 5, controlPoints: [.init(time: 0.5, value: 0.3)])
    let timeline = ControlTimeline(parameters: [step], curves: [second, first, late])
    #expect(abs(timeline.value(.hapticIntensityControl, at: 0.5) - 0.25) < 1e-12)
    #expect(timeline.value(.hapticIntensityControl, at: 1.5) == 0.5)  // the later-starting curve
    #expect(timeline.value(.hapticIntensityControl, at: 2.9) == 0.5)  // holds its last value
    #expect(timeline.value(.hapticIntensityControl, at: 3) == 0.25)  // the Parameter step
    #expect(timeline.value(.hapticSharpnessControl, at: 5.2) == 0)  // before its first point
    #expect(timeline.value(.hapticSharpnessControl, at: 5.5) == 0.3)
    #expect(timeline.controlledIDs == [.hapticIntensityControl, .hapticSharpnessControl])
  }

  @Test("Duration follows Apple's rule: last event start plus its duration, parameters, curve ends")
  func duration() {
    var pattern = HapticPattern(events: [
      HapticEvent(.hapticTransient, time: 2),
      HapticEvent(.hapticContinuous, time: 0.5, duration: 1),
    ])
    #expect(pattern.duration == 2)
    pattern.add(HapticEvent(.hapticContinuous, time: 1.5, duration: 1))
    #expect(pattern.duration == 2.5)
    pattern.add(DynamicParameter(.hapticIntensityControl, value: 0.5, time: 3))
    #expect(pattern.duration == 3)
    pattern.add(ParameterCurve(.hapticIntensityControl, time: 2, controlPoints: [.init(time: 0, value: 0), .init(time: 1.75, value: 1)]))
    #expect(pattern.duration == 3.75)
    #expect(HapticPattern().duration == 0)
    #expect(HapticPattern().isEmpty)
  }

  @Test("Events are sorted by time, ties keep their order")
  func stableSort() {
    let events = (0..<50).map { HapticEvent(.hapticTransient, time: Double(($0 * 7) % 5), duration: Double($0)) }
    let pattern = HapticPattern(events: events)
    #expect(pattern.events.map(\.time) == events.map(\.time).sorted())
    for t in 0..<5 {
      let durations = pattern.events.filter { $0.time == Double(t) }.compactMap(\.duration)
      #expect(durations == durations.sorted(), "ties keep input order at \(t)")
    }
  }

  @Test("Setting a parameter twice replaces it in place")
  func setReplaces() {
    var event = HapticEvent(.hapticContinuous, time: 0, parameters: [EventParameter(.hapticIntensity, 0.2), EventParameter(.hapticSharpness, 0.1), EventParameter(.hapticIntensity, 0.9)])
    #expect(event.parameters.map(\.id) == [.hapticIntensity, .hapticSharpness])
    #expect(event.value(of: .hapticIntensity) == 0.9)
    event.set(.sustained, 0)
    #expect(!event.isSustained)
    #expect(event.givenValue(of: .attackTime) == nil)
  }
}

@Suite("Dynamic parameter tables")
struct DynamicParameterTableTests {
  @Test("ordinal is the position in allCases")
  func ordinals() {
    #expect(DynamicParameterID.allCases.map(\.ordinal) == Array(0..<DynamicParameterID.allCases.count))
  }

  @Test("The control for each event parameter matches the target and kind rules")
  func controlTable() {
    for type in HapticEventType.allCases {
      for parameter in EventParameterID.allCases {
        // The rule spelled out: same target, same kind (haptic/audio), sharpness not on transients.
        var expected = DynamicParameterID.allCases.first { $0.target == parameter && $0.isHaptic == type.isHaptic }
        if expected == .hapticSharpnessControl && type != .hapticContinuous { expected = nil }
        #expect(ControlTimeline.control(for: parameter, eventType: type) == expected, "\(parameter) on \(type)")
      }
    }
  }
}
