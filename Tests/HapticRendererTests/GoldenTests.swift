import HapticCore
import HapticRenderer
import Testing

/// Hand-made patterns with known answers.
@Suite("Renderer golden patterns")
struct GoldenTests {
  @Test("A lone transient at 80 ms drives from 80 ms ± 1 frame", arguments: BoardProfile.builtIn)
  func transientOnset(_ profile: BoardProfile) throws {
    let (frames, _, _) = try render(HapticPattern(events: [event(.hapticTransient, at: 0.080)]), on: profile)
    let first = try #require(frames.firstDriven)
    #expect(abs(first.index - 80) <= 1)
    #expect(frames.prefix(79).allSatisfy { $0.level == 0 })
    #expect(frames.last?.level == 0)
  }

  @Test("A transient overdrives, then brakes on host-shaped boards")
  func transientShape() throws {
    let (frames, segments, stats) = try render(
      HapticPattern(events: [event(.hapticTransient, at: 0, intensity: 1)]), on: .simLRA)
    // Full-scale overdrive from the first frame.
    #expect(frames[0].level == BoardProfile.simLRA.maxLevel)
    // Then reverse drive (a brake), then silence.
    let brake = try #require(frames.firstIndex { $0.level < 0 })
    #expect(frames[..<brake].allSatisfy { $0.level > 0 })
    #expect(frames.last?.level == 0)
    #expect(stats.brakeSegments >= 1)
    #expect(segments.contains { $0.isBrake })
    // Drive window: 2.6 − 0.65 = 1.95 cycles of f0 ≈ 11.5 ms (§15.7).
    let window = FrameRendererWindow.lra(sharpness: 0.5)
    #expect(abs(Double(brake) * 0.001 - window) <= 0.0011)
    // On the driver-shaped DRV2605L the host sends the level only: no negative values.
    let drv = try render(HapticPattern(events: [event(.hapticTransient, at: 0)]), on: .unoDRV2605L)
    #expect(drv.frames.allSatisfy { $0.level >= 0 })
    #expect(drv.frames.first?.level == 255)
  }

  @Test("A continuous event with attack rises over the documented time")
  func attackRise() throws {
    // AttackTime 0.5 → 30.6 ms (EnvelopeTiming), on the DRV2605L (no host shaping).
    let attack = EnvelopeTiming.seconds(0.5)
    #expect(abs(attack - 0.0306) < 0.0005)
    let pattern = HapticPattern(events: [
      event(.hapticContinuous, at: 0.1, duration: 0.3, intensity: 1, [EventParameter(.attackTime, 0.5)])
    ])
    let (frames, _, _) = try render(pattern, on: .unoDRV2605L)
    let start = 100
    let attackFrames = Int((attack / 0.001).rounded(.up))
    let rising = frames[start..<(start + attackFrames)].map(\.level)
    #expect(zip(rising, rising.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic rise")
    #expect(rising.first ?? 255 < 20)
    #expect(frames[start + attackFrames + 2].level == 255, "full level once the attack is over")
    #expect(frames[start + attackFrames / 2].level < 255)
    // Sustained until the duration, then no release (ReleaseTime 0): the render ends there.
    #expect(frames[start + 299].level == 255)
    #expect(frames.count == start + 301)
    #expect(frames.last?.level == 0)
  }

  @Test("Sustained = 0 gives an attack/decay envelope that ends when the decay does")
  func attackDecay() throws {
    let pattern = HapticPattern(events: [
      event(.hapticContinuous, at: 0, duration: 2, intensity: 1, [
        EventParameter(.attackTime, 0.3), EventParameter(.decayTime, 0.6), EventParameter(.sustained, 0),
      ])
    ])
    let (frames, _, _) = try render(pattern, on: .unoDRV2605L)
    let natural = EnvelopeTiming.seconds(0.3) + EnvelopeTiming.seconds(0.6)
    let lastDriven = try #require(frames.lastIndex { $0.level > 0 })
    #expect(abs(Double(lastDriven) * 0.001 - natural) < 0.003, "ends at attack + decay, not at the 2 s duration")
    let peak = try #require(frames.map(\.level).max())
    #expect(peak >= 250, "reaches (nearly) full level at the attack peak between frames")
  }

  @Test("A release tail follows the duration")
  func releaseTail() throws {
    let pattern = HapticPattern(events: [
      event(.hapticContinuous, at: 0, duration: 0.2, intensity: 1, [EventParameter(.releaseTime, 0.7)])
    ])
    let (frames, _, _) = try render(pattern, on: .unoDRV2605L)
    let release = EnvelopeTiming.seconds(0.7)
    let lastDriven = try #require(frames.lastIndex { $0.level > 0 })
    #expect(abs(Double(lastDriven) * 0.001 - (0.2 + release)) < 0.003)
    let tail = frames[200...lastDriven].map(\.level)
    #expect(zip(tail, tail.dropFirst()).allSatisfy { $0 >= $1 }, "monotonic fade")
  }

  @Test("An intensity curve dims and restores")
  func curveDimsAndRestores() throws {
    let pattern = HapticPattern(
      events: [event(.hapticContinuous, at: 0, duration: 1, intensity: 1)],
      curves: [
        ParameterCurve(.hapticIntensityControl, time: 0.2, controlPoints: [
          .init(time: 0, value: 1), .init(time: 0.2, value: 0.3), .init(time: 0.4, value: 1),
        ])
      ])
    let (frames, _, _) = try render(pattern, on: .unoDRV2605L)
    #expect(frames[100].level == 255)
    #expect(frames[400].level < 100, "dimmed at the curve's low point")
    #expect(frames[300].level > frames[400].level && frames[300].level < 255)
    #expect(frames[700].level == 255, "restored after the curve")
  }

  @Test("Parameter entries step the value at their times")
  func parameterSteps() throws {
    let pattern = HapticPattern(
      events: [event(.hapticContinuous, at: 0, duration: 1, intensity: 1)],
      parameters: [
        DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.3),
        DynamicParameter(.hapticIntensityControl, value: 1, time: 0.6),
      ])
    let (frames, _, _) = try render(pattern, on: .unoDRV2605L)
    #expect(frames[299].level == 255)
    #expect(frames[300].level < 255 && frames[300].level > 0)
    #expect(frames[599].level == frames[300].level)
    #expect(frames[600].level == 255)
  }

  @Test("Sharpness maps linearly in Hz across the band on frequency-capable boards")
  func sharpnessFrequency() throws {
    // The band: where rated drive is within 12 dB of its strongest (147 … 211 Hz on sim-lra).
    for (sharpness, expected) in [(0.0, 147), (1.0, 211)] {
      let pattern = HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.05, sharpness: sharpness)])
      let (frames, _, _) = try render(pattern, on: .simLRA)
      #expect(frames[20].frequency == expected)
    }
    let (frames, _, _) = try render(
      HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.05)]), on: .simERM)
    #expect(frames.allSatisfy { $0.frequency == 0 }, "amplitude-only boards report 0 Hz")
  }

  @Test("Overlaps mix in power: two equal events +3 dB, a soft one barely moves a loud one")
  func overlapMixing() throws {
    func level(_ events: [HapticEvent]) throws -> Int {
      try render(HapticPattern(events: events), on: .unoDRV2605L).frames[50].level
    }
    let half = try level([event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.5)])
    let twoHalves = try level([
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.5),
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.5),
    ])
    #expect(abs(Double(twoHalves) / Double(half) - 2.0.squareRoot()) < 0.05)
    let loud = try level([event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.9)])
    let loudAndSoft = try level([
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.9),
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 0.1),
    ])
    #expect(loudAndSoft - loud <= 1)
    let full = try level([
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 1),
      event(.hapticContinuous, at: 0, duration: 0.1, intensity: 1),
    ])
    #expect(full == 255, "the mix is limited to rated drive")
  }

  @Test("Audio events never drive the actuator")
  func audioIsSilent() throws {
    let pattern = HapticPattern(events: [
      HapticEvent(.audioContinuous, time: 0, duration: 0.5),
      HapticEvent(.audioCustom, time: 0.1, waveformPath: "a.wav"),
    ])
    for profile in BoardProfile.builtIn {
      let (frames, _, _) = try render(pattern, on: profile)
      #expect(frames.allSatisfy { $0.level == 0 })
    }
  }

  @Test("No 30 s cap: a 100 s continuous event renders 100 s")
  func longEvent() throws {
    let pattern = HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 100, intensity: 0.7)])
    var renderer = try FrameRenderer(pattern: pattern, profile: .simERM)
    var driven = 0
    var count = 0
    while let frame = renderer.next() {
      count += 1
      if frame.level > 0 { driven += 1 }
    }
    #expect(driven >= 99_990)
    #expect(count >= 100_000)
  }

  @Test("Intensity mappings: sensation level keeps low intensities perceptible, square follows Lofelt")
  func intensityMappings() throws {
    func level(_ intensity: Double, _ mapping: IntensityMapping) throws -> Int {
      let pattern = HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.1, intensity: intensity)])
      return try render(pattern, on: .unoDRV2605L, options: RenderOptions(intensityMapping: mapping)).frames[50].level
    }
    #expect(try level(1, .sensationLevel) == 255)
    #expect(try level(1, .square) == 255)
    #expect(try level(0.5, .square) == 64)  // 0.5² of full scale
    // Sensation level: intensity 0.1 still lands above the detection threshold (≈ 0.027 G of
    // 1.5 G rated → level ≥ 5), where intensity² (0.01 → level 3) would not.
    #expect(try level(0.1, .sensationLevel) >= 5)
    #expect(try level(0.1, .square) <= 3)
    #expect(try level(0, .sensationLevel) == 0)
  }
}

/// The transient drive window the renderer documents, computed independently for tests.
enum FrameRendererWindow {
  /// A transient's drive window on `sim-lra` (a host-shaped LRA with a sharpness band, f0
  /// 170 Hz): 2.6 − 1.3 × sharpness cycles of f0 (docs/semantics.md §15.7).
  static func lra(sharpness: Double) -> Double {
    max((2.6 - 1.3 * sharpness) / 170, 0.004)
  }
}
