import HapticAHAP
import HapticCore
import Testing

@Suite("Hand-written fixtures: what the corpus lacks")
struct FixtureTests {
  @Test("Parameter entries, attack/decay/release and Sustained=0 load as written; the Sustained=0 event is warned of ending early")
  func parametersAndEnvelopes() throws {
    let document = try AHAPReader().read(contentsOf: TestPaths.fixture("good/parameters-and-envelopes.ahap"))
    // Its attack and decay (0.063 s) end long before its EventDuration (0.5 s): the one warning.
    #expect(document.warnings.map { "\($0.code) \($0.path)" } == ["endsEarly Pattern[1].Event.EventDuration"])
    let pattern = document.pattern
    #expect(pattern.metadata.map(\.key) == ["Project", "Description"])
    #expect(pattern.events.count == 2)
    let sustained = pattern.events[0]
    #expect(sustained.type == .hapticContinuous)
    #expect(sustained.duration == 1.5)
    #expect(sustained.value(of: .attackTime) == 0.25)
    #expect(sustained.value(of: .releaseTime) == 0.5)
    #expect(sustained.value(of: .decayTime) == 0)
    #expect(sustained.isSustained)
    let decaying = pattern.events[1]
    #expect(!decaying.isSustained)
    #expect(decaying.value(of: .decayTime) == 0.6)

    #expect(pattern.parameters.map(\.id) == [
      .hapticIntensityControl, .hapticSharpnessControl, .hapticIntensityControl,
      .hapticReleaseTimeControl, .hapticAttackTimeControl, .hapticDecayTimeControl,
    ])
    #expect(pattern.parameters.map(\.time) == [0.5, 0.75, 1.0, 1.2, 1.9, 1.9])
    #expect(pattern.duration == 2.5)

    let timeline = ControlTimeline(pattern)
    #expect(timeline.value(.hapticIntensityControl, at: 0.4) == 1)
    #expect(timeline.value(.hapticIntensityControl, at: 0.5) == 0.4)
    #expect(timeline.value(.hapticIntensityControl, at: 0.99) == 0.4)
    #expect(timeline.value(.hapticIntensityControl, at: 1.0) == 1)
    // Intensity multiplies: 0.8 × 0.4.
    #expect(abs(timeline.effectiveValue(.hapticIntensity, of: sustained, at: 0.6) - 0.32) < 1e-12)
    // Sharpness adds: 0.3 − 0.25.
    #expect(abs(timeline.effectiveValue(.hapticSharpness, of: sustained, at: 0.8) - 0.05) < 1e-12)
  }

  @Test("AudioContinuous and AudioCustom events with the waveform flags")
  func audioEvents() throws {
    let document = try AHAPReader().read(contentsOf: TestPaths.fixture("good/audio.ahap"))
    #expect(document.warnings.isEmpty)
    let pattern = document.pattern
    #expect(pattern.events.map(\.type) == [.audioCustom, .hapticTransient, .audioContinuous])
    let custom = pattern.events[0]
    #expect(custom.waveformPath == "sounds/click.wav")
    #expect(custom.waveformUsesVolumeEnvelope == false)
    #expect(custom.waveformLoopEnabled == true)
    let tone = pattern.events[2]
    #expect(tone.value(of: .audioPitch) == -0.3)
    #expect(tone.value(of: .audioPan) == 0.5)
    #expect(tone.value(of: .audioBrightness) == 0.2)
    #expect(tone.value(of: .audioVolume) == 0.7)
    // Audio controls touch audio events only.
    let timeline = ControlTimeline(pattern)
    #expect(timeline.effectiveValue(.audioVolume, of: tone, at: 0.35) == 0.35)
    #expect(timeline.effectiveValue(.hapticIntensity, of: pattern.events[1], at: 0.35) == 1)

    let resolved = try WaveformPath.resolve(custom.waveformPath ?? "", relativeTo: TestPaths.fixture("good/audio.ahap"))
    #expect(resolved.hasSuffix("/good/sounds/click.wav"))
  }

  @Test("Leniency: defaults, clamps, unknown keys, trailing commas, duplicates — all warned")
  func lenient() throws {
    let document = try AHAPReader().read(contentsOf: TestPaths.fixture("good/lenient.ahap"))
    let pattern = document.pattern
    let found = Set(document.warnings.map { "\($0.code.name) \($0.path)" })
    let expected: Set<String> = [
      "unknownKey Extra",
      "ignoredField Metadata.Revision",
      "unknownKey Pattern[0].Event.Colour",
      "valueClamped Pattern[0].Event.EventParameters[0].ParameterValue",
      "valueClamped Pattern[0].Event.EventParameters[1].ParameterValue",
      "duplicateKey Pattern[0].Event.EventParameters[2]",
      "ignoredField Pattern[0].Event.EventParameters[3].ParameterID",
      "defaultApplied Pattern[1].Event.Time",
      "longEvent Pattern[1].Event.EventDuration",
      "valueClamped Pattern[2].Event.EventParameters[0].ParameterValue",
      "defaultApplied Pattern[3].Parameter.Time",
      "valueClamped Pattern[3].Parameter.ParameterValue",
      "unknownKey Pattern[4].ParameterCurve.ParameterCurveControlPoints[2].Ease",
      "valueClamped Pattern[4].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue",
      "curveConvention Pattern[4].ParameterCurve.ParameterCurveControlPoints",
      "curveConvention Pattern[5].ParameterCurve.ParameterCurveControlPoints",
      "unknownKey Pattern[6].Comment",
      "unknownKey Pattern[6]",
    ]
    #expect(found == expected)
    #expect(document.warnings.allSatisfy { $0.severity == .warning && $0.line != nil })

    #expect(pattern.version == 2)
    #expect(pattern.metadata.map(\.key) == ["Project", "Created By"])
    #expect(pattern.events.map(\.time) == [0, 0.2, 0.5])
    let transient = pattern.events[2]
    #expect(transient.value(of: .hapticIntensity) == 0.9)  // the later duplicate wins (after clamping)
    #expect(transient.value(of: .hapticSharpness) == 0)  // clamped from -0.2
    #expect(pattern.events[0].duration == 45)  // no 30 s cap
    #expect(pattern.events[1].isSustained)  // Sustained 0.5 reads as sustained
    #expect(pattern.parameters.first?.value == 1)  // clamped from 1.5
    #expect(pattern.curves.count == 1)  // the empty curve is dropped
    let curve = pattern.curves[0]
    #expect(curve.controlPoints.map(\.time) == [0, 0.2, 0.4])  // sorted
    #expect(curve.controlPoints.map(\.value) == [0.5, 0.25, -1])  // -2 clamped to -1
  }

  @Test("Defaults per event type follow the documented table")
  func defaults() {
    let transient = HapticEvent(.hapticTransient, time: 0)
    let continuous = HapticEvent(.hapticContinuous, time: 0, duration: 1)
    #expect(transient.value(of: .hapticIntensity) == 0.75)
    #expect(transient.value(of: .hapticSharpness) == 0.5)
    #expect(continuous.value(of: .hapticIntensity) == 0.6)
    #expect(continuous.value(of: .hapticSharpness) == 0.422601)
    #expect(continuous.value(of: .sustained) == 1)
    #expect(HapticEvent(.audioContinuous, time: 0).value(of: .audioVolume) == 1)
    #expect(HapticEvent(.audioContinuous, time: 0).value(of: .audioPitch) == 0)
  }
}
