import Foundation
import HapticAHAP
import HapticClip
import HapticCore
import Testing

/// AHAP → `.haptic` (issue 17): what a pattern becomes, and what is reported lost. How the
/// corpus plays after the trip is in HapticSimulatorTests (ClipRoundTripTests).
@Suite("A pattern as a .haptic clip")
struct ClipConversionTests {
  static func continuous(_ time: Double, _ duration: Double, intensity: Double, sharpness: Double, _ more: [EventParameter] = []) -> HapticEvent {
    HapticEvent(
      .hapticContinuous, time: time, duration: duration,
      parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)] + more)
  }

  static func transient(_ time: Double, intensity: Double, sharpness: Double) -> HapticEvent {
    HapticEvent(.hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
  }

  @Test("Events become envelopes (intensity², sharpness²) and transients emphases at their own strength")
  func mapping() {
    let pattern = HapticPattern(events: [
      Self.continuous(0.1, 0.2, intensity: 0.5, sharpness: 0.6),
      Self.transient(0.2, intensity: 0.9, sharpness: 0.3),
      Self.transient(0.5, intensity: 0.8, sharpness: 0.7),
    ])
    let conversion = HapticClip.converting(pattern)
    #expect(conversion.playsTheSame && conversion.notes.isEmpty, "\(conversion.notes)")
    let amplitude = conversion.clip.amplitude
    // Silence, a step up at 0.1, the transient's zero-width point inside, a step down at 0.3,
    // the lone transient over silence.
    #expect(amplitude.map { ($0.time * 1e9).rounded() / 1e9 } == [0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.3, 0.5], "\(amplitude)")
    #expect(amplitude.map(\.amplitude) == [0, 0, 0.25, 0.25, 0.25, 0.25, 0.25, 0, 0], "\(amplitude)")
    let emphases = amplitude.compactMap(\.emphasis)
    #expect(emphases.count == 2)
    #expect(abs(emphases[0].amplitude - 0.81) < 1e-12 && emphases[0].frequency == 0.3)
    #expect(abs(emphases[1].amplitude - 0.64) < 1e-12 && emphases[1].frequency == 0.7)
    #expect(conversion.clip.frequency.allSatisfy { abs($0.frequency - 0.36) < 1e-12 }, "\(conversion.clip.frequency)")
    // Played back: the same continuous event and the same transients.
    let back = conversion.clip.pattern()
    #expect(back.events.filter { $0.type == .hapticContinuous }.map(\.time) == [0.1])
    let transients = back.events.filter { $0.type == .hapticTransient }
    #expect(transients.map(\.time) == [0.2, 0.5])
    #expect(transients.map { $0.value(of: .hapticIntensity) }.map { ($0 * 1e9).rounded() } == [0.9e9, 0.8e9])
  }

  @Test("A transient under an intensity control keeps the strength it had (AHAP scales it at onset)")
  func transientUnderControl() {
    let pattern = HapticPattern(
      events: [Self.transient(0.1, intensity: 1, sharpness: 0.5)],
      parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)])
    let conversion = HapticClip.converting(pattern)
    let emphasis = conversion.clip.amplitude.compactMap(\.emphasis)
    #expect(emphasis.map(\.amplitude) == [0.25])
    #expect(conversion.notes.contains { $0.kind == .rendered && $0.message.contains("HapticIntensityControl") })
  }

  @Test("Envelope shapes and curves are traced within the tolerance, and noted as rendered")
  func tracing() {
    let pattern = HapticPattern(
      events: [Self.continuous(0, 1, intensity: 1, sharpness: 0.5, [EventParameter(.attackTime, 0.8), EventParameter(.sustained, 1)])],
      curves: [
        ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 1), .init(time: 1, value: 0.2)])
      ])
    let conversion = HapticClip.converting(pattern)
    let clip = conversion.clip
    // The attack (0.25 s, linear) times a falling curve: a parabola, traced by more points.
    #expect(clip.amplitude.count > 6 && clip.amplitude.count < 200, "\(clip.amplitude.count) points")
    let attack = EnvelopeTiming.seconds(0.8)
    for t in stride(from: 0.0, through: 1.0, by: 0.01) {
      let expected = (t < attack ? t / attack : 1) * (1 - 0.8 * t)
      let points = clip.amplitude
      guard let next = points.firstIndex(where: { $0.time > t }), next > 0 else { continue }
      let (a, b) = (points[next - 1], points[next])
      // A clip is linear in amplitude between breakpoints (Meta's renderer): intensity is √ of that.
      let played = (a.amplitude + (b.amplitude - a.amplitude) * (t - a.time) / (b.time - a.time)).squareRoot()
      #expect(abs(played - expected) <= HapticClip.clipTolerance * 1.01, "at \(t): \(played) vs \(expected)")
    }
    #expect(conversion.playsTheSame)
    #expect(conversion.notes.contains { $0.kind == .rendered && $0.message.contains("attack, decay and release of 1 continuous event") })
  }

  @Test("Losses are reported where they occur: audio, overlapping events; metadata without a field is dropped")
  func losses() {
    var pattern = HapticPattern(
      metadata: [MetadataEntry("Project", "Demo"), MetadataEntry("Created", "Ana"), MetadataEntry("Tool", "X")],
      events: [
        Self.continuous(0, 0.5, intensity: 0.5, sharpness: 0.2),
        Self.continuous(0.3, 0.5, intensity: 0.5, sharpness: 0.8),
        HapticEvent(.audioContinuous, time: 1.5, duration: 0.2),
      ])
    pattern.add(DynamicParameter(.audioVolumeControl, value: 0.5, time: 0))
    let conversion = HapticClip.converting(pattern)
    #expect(!conversion.playsTheSame)
    let lost = conversion.notes.filter { $0.kind == .lost }
    #expect(lost.contains { $0.time == 1.5 && $0.message.contains("1 audio event") }, "\(lost)")
    #expect(lost.contains { $0.time == 0.3 && $0.end == 0.5 && $0.message.contains("overlap") }, "\(lost)")
    #expect(lost.contains { $0.message.contains("AudioVolumeControl") }, "\(lost)")
    #expect(conversion.notes.contains { $0.kind == .dropped && $0.message.contains("Tool") })
    // Created is no author (Apple's files keep a date there, issue 32 point 5): dropped, noted.
    #expect(conversion.clip.metadata.project == "Demo" && conversion.clip.metadata.author.isEmpty)
    #expect(conversion.notes.contains { $0.kind == .dropped && $0.message.contains("Created") })
    // Where they overlap, the two mix in power: (0.5⁴ + 0.5⁴)^¼ = 0.595 intensity.
    let middle = conversion.clip.amplitude.first { $0.time > 0.3 && $0.time < 0.5 }
    #expect(middle.map { abs($0.amplitude.squareRoot() - 0.5 * pow(2, 0.25)) < 0.003 } ?? true)
    #expect(conversion.notes.map(\.description).contains { $0.hasPrefix("lost from 0.3 s to 0.5 s: continuous events overlap") })
  }

  @Test("Metadata survives .haptic → AHAP → .haptic; an AHAP's Created date never becomes an author")
  func metadataRoundTrip() {
    var clip = HapticClip(amplitude: [.init(time: 0, amplitude: 0.4), .init(time: 0.5, amplitude: 0.4)])
    clip.metadata = HapticClip.Metadata()
    clip.metadata.project = "Demo"
    clip.metadata.description = "a knock"
    clip.metadata.author = "Ana"
    clip.metadata.editor = "Meta Haptics Studio"
    clip.metadata.source = "knock.wav"
    clip.metadata.tags = ["ui", "short"]
    let pattern = clip.pattern()
    #expect(pattern.metadata.map(\.key) == ["Project", "Description", "Author", "Editor", "Source", "Tags"])
    let back = HapticClip.converting(pattern)
    #expect(back.clip.metadata == clip.metadata, "\(back.clip.metadata)")
    #expect(!back.notes.contains { $0.kind == .dropped }, "\(back.notes)")
    // Apple's own AHAP metadata: a creation date, which has no place in a .haptic file.
    let apple = HapticPattern(
      metadata: [MetadataEntry("Project", "Demo"), MetadataEntry("Created", "2020-06-01"), MetadataEntry("Description", "x")],
      events: [Self.continuous(0, 0.5, intensity: 0.5, sharpness: 0.2)])
    let fromApple = HapticClip.converting(apple)
    #expect(fromApple.clip.metadata.author.isEmpty, "the date is not an author: \(fromApple.clip.metadata)")
    #expect(fromApple.clip.metadata.project == "Demo" && fromApple.clip.metadata.description == "x")
    #expect(fromApple.notes.contains { $0.kind == .dropped && $0.message.contains("Created") })
  }

  /// Found by fuzzing once the single-breakpoint warning existed: a pattern where nothing lasts
  /// made a one-breakpoint clip, which Meta's validator refuses.
  @Test("Nothing that lasts (a lone tap, a 0 s continuous event, nothing) still converts to a clip Meta accepts")
  func nothingThatLasts() throws {
    let patterns = [
      HapticPattern(events: [HapticEvent(.hapticTransient, time: 0, parameters: [EventParameter(.hapticIntensity, 1)])]),
      HapticPattern(events: [HapticEvent(.hapticContinuous, time: 0, duration: 0)]),
      HapticPattern(events: []),
    ]
    for pattern in patterns {
      let clip = HapticClip.converting(pattern).clip
      #expect(clip.amplitude.count >= 2 && clip.duration > 0, "\(clip.amplitude)")
      let back = try HapticClipReader().read(HapticClipWriter().bytes(clip), file: "converted.haptic")
      #expect(back.warnings.isEmpty, "\(back.warnings)")
    }
  }

  @Test("The writer: Meta's layout, deterministic, read back to the same clip")
  func writer() throws {
    var clip = HapticClip(
      amplitude: [.init(time: 0, amplitude: 0.2), .init(time: 0.5, amplitude: 0.3, emphasis: .init(amplitude: 0.9, frequency: 0.4))],
      frequency: [.init(time: 0, frequency: 0.5)])
    clip.metadata.tags = ["a", "b"]
    let text = String(decoding: HapticClipWriter().bytes(clip), as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"version\": {\n    \"major\": 1,"), "\(text)")
    #expect(text.hasSuffix("}\n"))
    let back = try HapticClipReader().read(string: text)
    #expect(back.clip == clip && back.warnings.isEmpty)
    clip.frequency = []
    #expect(!String(decoding: HapticClipWriter().bytes(clip), as: UTF8.self).contains("\"frequency\": ["))
  }
}
