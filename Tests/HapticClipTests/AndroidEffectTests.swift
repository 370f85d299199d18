import Foundation
import HapticAHAP
import HapticClip
import HapticCore
import Testing

/// A pattern as Android vibration effects (issue 17).
@Suite("Android effects")
struct AndroidEffectTests {
  /// The waveform as one amplitude per millisecond.
  static func perMillisecond(_ waveform: (timings: [Int], amplitudes: [Int])) -> [Int] {
    zip(waveform.timings, waveform.amplitudes).flatMap { Array(repeating: $1, count: $0) }
  }

  @Test("Waveform: amplitude = intensity² × 255 per millisecond; a transient is a burst with silence around it")
  func waveform() throws {
    let pattern = HapticPattern(events: [
      ClipConversionTests.continuous(0, 0.4, intensity: 0.5, sharpness: 0.5),
      ClipConversionTests.transient(0.2, intensity: 0.9, sharpness: 0.5),
    ])
    let effect = try AndroidEffect(pattern)
    let ms = Self.perMillisecond(effect.waveform)
    #expect(ms.count == 400, "\(effect.waveform)")
    #expect(ms[0..<190].allSatisfy { $0 == 64 }, "0.5² × 255 = 64")
    #expect(ms[190..<200].allSatisfy { $0 == 0 }, "silence before the burst")
    #expect(ms[200..<220].allSatisfy { $0 == 207 }, "0.9² × 255 = 207")
    #expect(ms[220..<225].allSatisfy { $0 == 0 }, "silence after the burst")
    #expect(ms[225..<400].allSatisfy { $0 == 64 })
    #expect(effect.waveform.timings.allSatisfy { $0 > 0 })
    #expect(effect.notes(.waveform).contains { $0.kind == .lost && $0.message.contains("sharpness") })
    #expect(effect.notes(.waveform).contains { $0.kind == .lost && $0.time == 0.2 && $0.message.contains("1 transient") })
    // A ramp is a staircase of one level per step at most.
    let ramp = try AndroidEffect(HapticPattern(events: [ClipConversionTests.continuous(0, 1, intensity: 1, sharpness: 0.5, [EventParameter(.attackTime, 1)])]))
    let steps = Self.perMillisecond(ramp.waveform)
    #expect(steps.count == 1000 && zip(steps, steps.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 <= 2 })
  }

  @Test("Envelope: ramps of 20 ms to 1 s, starting and ending at intensity 0, on the pattern's curve")
  func envelope() throws {
    let pattern = HapticPattern(
      events: [ClipConversionTests.continuous(0, 3, intensity: 1, sharpness: 0.2)],
      curves: [
        ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 0.2), .init(time: 3, value: 1)]),
        ParameterCurve(.hapticSharpnessControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 3, value: 0.6)]),
      ])
    let effect = try AndroidEffect(pattern)
    let points = effect.envelope
    #expect(points.allSatisfy { (20...1000).contains($0.duration) }, "\(points)")
    #expect(points.last?.intensity == 0)
    #expect(abs(effect.initialSharpness - 0.2) < 1e-3)
    // The 3 s ramp is cut into pieces of at most 1 s, each on the line.
    var ms = 0
    for point in points.dropLast() {
      ms += point.duration
      let t = Double(ms) / 1000
      #expect(abs(point.intensity - (0.2 + 0.8 * t / 3)) < 0.01, "at \(ms) ms: \(point)")
      #expect(abs(point.sharpness - (0.2 + 0.6 * t / 3)) < 0.01, "at \(ms) ms: \(point)")
    }
    #expect(abs(ms - 3000) <= 1)
    // Faster than 20 ms: smoothed, and said so.
    let fast = try AndroidEffect(HapticPattern(events: [ClipConversionTests.transient(0.1, intensity: 1, sharpness: 1)]))
    #expect(fast.envelope.allSatisfy { $0.duration >= 20 })
    #expect(fast.notes(.envelope).contains { $0.message.contains("smoothed") })
    // Over 10 minutes: refused (the timeline holds every millisecond).
    #expect(throws: AndroidEffect.Refusal.self) {
      try AndroidEffect(HapticPattern(events: [ClipConversionTests.continuous(0, 700, intensity: 1, sharpness: 0.5)]))
    }
  }

  @Test("JSON for Kotlin: the arrays or points, and a line that builds the effect")
  func json() throws {
    let pattern = HapticPattern(events: [ClipConversionTests.continuous(0, 0.1, intensity: 1, sharpness: 0.5)])
    let effect = try AndroidEffect(pattern)
    let waveform = try #require(try JSONSerialization.jsonObject(with: Data(effect.json(.waveform))) as? [String: Any])
    #expect(waveform["timings"] as? [Int] == [100] && waveform["amplitudes"] as? [Int] == [255])
    #expect(waveform["kotlin"] as? String == "VibrationEffect.createWaveform(longArrayOf(100), intArrayOf(255), -1)")
    let envelope = try #require(try JSONSerialization.jsonObject(with: Data(effect.json(.envelope))) as? [String: Any])
    let points = try #require(envelope["control_points"] as? [[String: Any]])
    let kotlin = try #require(envelope["kotlin"] as? String)
    #expect(kotlin.components(separatedBy: ".addControlPoint(").count - 1 == points.count)
    #expect(kotlin.hasPrefix("VibrationEffect.BasicEnvelopeBuilder().setInitialSharpness(0.5f)") && kotlin.hasSuffix(".build()"))
  }

  @Test("Every corpus AHAP file converts to both forms within Android's limits", .enabled(if: SharedCorpus.ahapIsPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func corpus() throws {
    let folder = ClipRoundTripPaths.ahapCorpus
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ahap") }
    #expect(files.count >= 40)
    for name in files {
      guard let pattern = try? AHAPReader().read(contentsOf: folder.appendingPathComponent(name).path).pattern else { continue }
      let effect = try AndroidEffect(pattern)
      guard !effect.waveform.timings.isEmpty else { continue }
      #expect(effect.waveform.timings.allSatisfy { $0 > 0 } && effect.waveform.amplitudes.allSatisfy { (0...255).contains($0) }, "\(name)")
      #expect(effect.envelope.allSatisfy { (20...1000).contains($0.duration) }, "\(name)")
      #expect(effect.envelope.last?.intensity == 0, "\(name)")
      let length = Double(effect.waveform.timings.reduce(0, +)) / 1000
      let sounding = pattern.events.filter(\.type.isHaptic).map { $0.time + ($0.duration ?? 0) }.max() ?? 0
      #expect(length <= sounding + 1.1 && length >= 0.001, "\(name): \(length) s for \(sounding) s")
    }
  }
}

/// Where the shared AHAP corpus is (../shared/corpus/ahap beside the package).
enum ClipRoundTripPaths {
  static let ahapCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
}
