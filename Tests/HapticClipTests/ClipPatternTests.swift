import Foundation
import HapticAHAP
import HapticCore
import HapticRenderer
import Testing

@testable import HapticClip

/// One model for both formats: a clip plays as Meta's renderer plays it (linear amplitude and
/// frequency between breakpoints), through the pattern Lofelt's converter's rules make of it.
@Suite("A .haptic clip as a pattern")
struct ClipPatternTests {
  /// Lofelt's converter pairs: the clip and the AHAP it produced (curve times absolute).
  static let pairs = [
    ("2_points", "2_points"), ("3_points", "3_points"), ("16_points", "16_points"), ("17_points", "17_points"),
    ("long_clip", "long_clip"), ("valid_v1_multiple_emphasis", "valid_v1_multiple_transients"),
  ]

  static func frames(_ pattern: HapticPattern, _ profile: BoardProfile) throws -> [Frame] {
    Array(try FrameRenderer(pattern: pattern, profile: profile))
  }

  /// The envelope's value at `t` (linear between breakpoints; the last one's after it).
  static func value(_ points: [(time: Double, value: Double)], at t: Double) -> Double {
    guard let last = points.last else { return 0 }
    guard let next = points.firstIndex(where: { $0.time > t }) else { return last.value }
    guard next > 0 else { return points[0].value }
    let (a, b) = (points[next - 1], points[next])
    return a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time)
  }

  @Test("Each clip plays its envelopes as Meta's renderer does: intensity² the amplitude, sharpness² the frequency, linear between breakpoints", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: pairs.map(\.0))
  func followsItsEnvelopes(_ name: String) throws {
    let clip = try HapticClipReader().read(contentsOf: ClipReaderTests.path("datamodel/ios/\(name).haptic")).clip
    let pattern = clip.pattern()
    #expect(pattern.intensityLaw == .amplitudeSquareRoot && pattern.intensityControlScope == .continuousEvents)
    let sampler = PatternSampler(pattern)
    let amplitude = clip.amplitude.map { (time: $0.time, value: $0.amplitude) }
    let frequency = clip.frequency.map { (time: $0.time, value: $0.frequency) }
    var worst = (intensity: 0.0, sharpness: 0.0)
    for span in clip.soundingSpans {
      for step in 0..<1000 {
        let t = span.lowerBound + (span.upperBound - span.lowerBound) * (Double(step) + 0.5) / 1000
        let sample = sampler.sample(at: t)
        worst.intensity = max(worst.intensity, abs(sample.intensity - Self.value(amplitude, at: t).squareRoot()))
        let expected = frequency.count > 1 ? Self.value(frequency, at: t) : (frequency.first?.value ?? HapticClip.defaultFrequency)
        worst.sharpness = max(worst.sharpness, abs(sample.sharpness - expected.squareRoot()))
      }
    }
    #expect(worst.intensity <= HapticClip.rootTolerance * 1.01, "\(name): intensity off by \(worst.intensity)")
    #expect(worst.sharpness <= HapticClip.rootTolerance * 1.01, "\(name): sharpness off by \(worst.sharpness)")
    // Every emphasis is a transient at its breakpoint, √ of its amplitude, its frequency as sharpness.
    let emphases = clip.amplitude.compactMap { point in point.emphasis.map { (point.time, $0) } }
    let transients = pattern.events.filter { $0.type == .hapticTransient }
    #expect(transients.count == emphases.count)
    for (transient, (time, emphasis)) in zip(transients, emphases) {
      #expect(transient.time == time)
      #expect(transient.value(of: .hapticIntensity) == emphasis.amplitude.squareRoot())
      #expect(transient.value(of: .hapticSharpness) == emphasis.frequency)
    }
  }

  @Test("The mapping: √amplitude and √frequency along the envelopes, no duck on an emphasized breakpoint, an emphasis → a transient")
  func mapping() {
    let clip = HapticClip(
      amplitude: [
        .init(time: 0, amplitude: 0), .init(time: 0.5, amplitude: 0.25, emphasis: .init(amplitude: 0.5625, frequency: 0.7)),
        .init(time: 1, amplitude: 0.5625),
      ],
      frequency: [.init(time: 0, frequency: 0.0625), .init(time: 1, frequency: 1)])
    let pattern = clip.pattern()
    #expect(pattern.events.map(\.type) == [.hapticContinuous, .hapticTransient])
    #expect(pattern.events[0].duration == 1)
    #expect(pattern.events[0].value(of: .hapticSharpness) == 0, "the sharpness curve carries the frequency")
    let transient = pattern.events[1]
    #expect(transient.time == 0.5)
    #expect(transient.value(of: .hapticIntensity) == 0.75)
    #expect(transient.value(of: .hapticSharpness) == 0.7)
    // √ at the breakpoints (0.5 at the emphasized one: Lofelt's × 0.8 is not applied) and
    // between them √ of the straight line, within 0.0002.
    let intensity = pattern.curves.first { $0.id == .hapticIntensityControl }.map { c in c.controlPoints.map { (c.time + $0.time, $0.value) } } ?? []
    #expect(intensity.first?.1 == 0 && intensity.last?.1 == 0.75)
    #expect(intensity.contains { $0.0 == 0.5 && $0.1 == 0.5 })
    #expect(intensity.count > 10, "\(intensity.count) points")
    let quarter = Self.value(intensity.map { (time: $0.0, value: $0.1) }, at: 0.25)
    #expect(abs(quarter - 0.125.squareRoot()) <= HapticClip.rootTolerance * 1.01, "\(quarter)")
    let sharpness = pattern.curves.first { $0.id == .hapticSharpnessControl }.map { c in c.controlPoints.map { (c.time + $0.time, $0.value) } } ?? []
    #expect(sharpness.first?.1 == 0.25 && sharpness.last?.1 == 1)
    let half = Self.value(sharpness.map { (time: $0.0, value: $0.1) }, at: 0.5)
    #expect(abs(half - 0.53125.squareRoot()) <= HapticClip.rootTolerance * 1.01, "\(half)")
    #expect(HapticClip(amplitude: [.init(time: 0, amplitude: 1)]).pattern().events.isEmpty, "a zero-length clip is silent")
    // Without a frequency envelope the clip plays at the default frequency, with one point at it.
    let plain = HapticClip(amplitude: [.init(time: 0, amplitude: 1), .init(time: 1, amplitude: 1)])
    #expect(plain.pattern().events[0].value(of: .hapticSharpness) == HapticClip.defaultFrequency.squareRoot())
    var single = plain
    single.frequency = [.init(time: 0, frequency: 0.36)]
    #expect(single.pattern().events[0].value(of: .hapticSharpness) == 0.6)
  }

  @Test("An emphasis plays at its own strength, whatever the amplitude envelope under it")
  func emphasisOutOfTheCurvesReach() throws {
    // Over silence (amplitude 0: the curve is 0 there) and over a soft envelope (0.09).
    for floor in [0.0, 0.09] {
      let clip = HapticClip(amplitude: [
        .init(time: 0, amplitude: floor), .init(time: 0.1, amplitude: floor, emphasis: .init(amplitude: 1, frequency: 0.5)),
        .init(time: 0.3, amplitude: floor),
      ])
      let alone = HapticPattern(events: [
        HapticEvent(.hapticTransient, time: 0.1, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)])
      ])
      let ours = try Self.frames(clip.pattern(), .simLRA)
      let lone = try Self.frames(alone, .simLRA)
      let peak = lone.map { abs($0.level) }.max() ?? 0
      #expect(peak > 100, "a full transient drives hard")
      #expect(ours.map { abs($0.level) }.max() == peak, "floor \(floor): the emphasis played weaker than a lone transient")
    }
  }

  @Test("Sounding spans become events; in a silent gap the curves hold each span's value, stepping halfway")
  func spansAndGaps() {
    let clip = HapticClip(
      amplitude: [
        .init(time: 0, amplitude: 0), .init(time: 0, amplitude: 0.25), .init(time: 0.1, amplitude: 0.25), .init(time: 0.1, amplitude: 0),
        .init(time: 0.2, amplitude: 0), .init(time: 0.2, amplitude: 1), .init(time: 0.3, amplitude: 1), .init(time: 0.3, amplitude: 0),
      ],
      frequency: [.init(time: 0, frequency: 0.04), .init(time: 0.3, frequency: 0.64)])
    #expect(clip.soundingSpans == [0...0.1, 0.2...0.3])
    let pattern = clip.pattern()
    #expect(pattern.events.map(\.time) == [0, 0.2] && pattern.events.map { (($0.duration ?? 0) * 1e9).rounded() } == [1e8, 1e8])
    let curve = pattern.curves.first { $0.id == .hapticIntensityControl }
    let points = curve.map { c in c.controlPoints.map { (c.time + $0.time, $0.value) } } ?? []
    let gap = points.filter { $0.0 >= 0.1 - 1e-12 && $0.0 <= 0.2 + 1e-12 }
    #expect(gap.map(\.1) == [0.5, 0.5, 1, 1], "\(points)")
    #expect(gap.map { ($0.0 * 1e9).rounded() / 1e9 } == [0.1, 0.15, 0.15, 0.2])
    // The sharpness line across the gap is held too: 0.2 + 0.6·(t/0.3), held from 0.1 to 0.15.
    let sharp = pattern.curves.first { $0.id == .hapticSharpnessControl }.map { c in c.controlPoints.map { (c.time + $0.time, $0.value) } } ?? []
    let held = sharp.filter { $0.0 > 0.1 - 1e-12 && $0.0 < 0.15 + 1e-12 }.map(\.1)
    #expect(held.count >= 2 && Set(held.prefix(2).map { ($0 * 1e9).rounded() }).count == 1, "\(sharp)")
  }
}
