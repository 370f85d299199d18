import Foundation
import HapticCore
import Testing

@testable import HapticRenderer

/// The renderer's side of the perceptual model (docs/semantics.md §15): the frames it sends.
/// What they feel like on the simulated actuators is checked in HapticSimulatorTests
/// (`FidelityTests`).
@Suite("Perceptual model: frames")
struct PerceptualModelTests {
  @Test("Intensity 1 is rated drive at every sharpness; the band is within 12 dB of f0")
  func intensitySpansTheDrive() throws {
    let map = PerceptualMap(actuator: BoardProfile.simLRA.channels[0], frequencyControl: 80...300, mapping: .sensationLevel)
    let band = try #require(map.band)
    #expect(band == 147...211)
    for sharpness in stride(from: 0.0, through: 1.0, by: 0.125) {
      let hz = map.frequency(sharpness: sharpness)
      let top = map.acceleration(intensity: 1, hz: hz)
      // Between the tables' points the level and the threshold interpolate apart from the
      // acceleration: within 0.1 % (a level of 127 is 0.8 %).
      #expect(abs(top / map.ratedAcceleration(at: hz) - 1) < 1e-3, "sharpness \(sharpness)")
      #expect(abs(map.drive(acceleration: top, hz: hz) - 0.5) < 1e-3, "rated drive is half of full scale")
      // Strictly increasing, and above the threshold from the first step.
      var last = 0.0
      for step in 1...20 {
        let a = map.acceleration(intensity: Double(step) / 20, hz: hz)
        #expect(a > last)
        last = a
      }
    }
    let edges = [band.lowerBound, band.upperBound].map { map.ratedAcceleration(at: Double($0)) }
    #expect(edges.allSatisfy { 20 * log10(1.5 / $0) <= 12 })
    // Middle intensities sound about equally loud across the band (I² brings in the rest).
    let middle = [0.0, 0.5, 1.0].map { map.acceleration(intensity: 0.5, hz: map.frequency(sharpness: $0)) }
    #expect(20 * log10(middle.max()! / middle.min()!) < 4)
  }

  /// Frames of `pattern` on `profile`.
  func frames(_ pattern: HapticPattern, _ profile: BoardProfile = .simLRA) throws -> [Frame] {
    Array(try FrameRenderer(pattern: pattern, profile: profile))
  }

  @Test("A transient ducks the continuous drive: nothing just before it, its f0 burst, a fade back")
  func transientDucksContinuous() throws {
    let pattern = HapticPattern(events: [
      event(.hapticContinuous, at: 0, duration: 0.4, intensity: 0.6, sharpness: 0),
      event(.hapticTransient, at: 0.2, intensity: 1, sharpness: 1),
    ])
    let rendered = try frames(pattern)
    // The frame before the transient coasts, so the burst starts on a restarted carrier.
    #expect(rendered[199].level == 0)
    #expect(rendered[200..<208].allSatisfy { $0.level == 127 && $0.frequency == 170 })
    // Ten frames ahead the continuous drive stops: it glides from 147 Hz to f0 and is braked
    // there.
    let lead = rendered[190..<199].map(\.frequency)
    #expect(lead.first! > 147 && lead.first! < 170 && lead.last == 170, "\(lead)")
    #expect(zip(lead, lead.dropFirst()).allSatisfy { $0 <= $1 })
    // It fades back in after the transient's brake: ramping up at the event's 147 Hz.
    let fade = rendered[213..<233].map(\.level)
    #expect(rendered[232].frequency == 147)
    #expect(fade.last! > fade.first! + 10)
    #expect(rendered[260].level == rendered[300].level, "restored")
  }

  @Test("Two players on one actuator follow the same rule: one's transient ducks the other's continuous")
  func duckingAcrossPlayers() throws {
    let continuous = HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.4, intensity: 0.6, sharpness: 0.5)])
    let transient = HapticPattern(events: [event(.hapticTransient, at: 0.1, intensity: 1, sharpness: 1)])
    var a = try PatternVoices(pattern: continuous, profile: .simLRA)
    var b = try PatternVoices(pattern: transient, profile: .simLRA)
    var mixed = try DriveStage(profile: .simLRA)
    var alone = try DriveStage(profile: .simLRA)
    var mixedFrames: [Frame] = []
    var aloneFrames: [Frame] = []
    var single = try PatternVoices(pattern: transient, profile: .simLRA)
    for k in 0..<200 {
      mixedFrames.append(mixed.frame(index: k, targets: [a.next(), b.next()]))
      aloneFrames.append(alone.frame(index: k, target: single.next()))
    }
    #expect(mixedFrames[99].level == 0, "coasts before the other player's transient")
    #expect(mixedFrames[100..<108].map(\.level) == aloneFrames[100..<108].map(\.level))
    #expect(mixedFrames[150].level > 0, "the continuous player is back")
  }

  @Test("An ERM at rest is kicked past its break-away level, at any crispness")
  func ermKick() throws {
    let profile = BoardProfile.simERM
    let start = profile.channels[0].startLevel
    #expect(abs(start - 0.225) < 1e-12)
    for sharpness in [0.0, 1.0] {
      let rendered = try frames(
        HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.3, intensity: 0.1, sharpness: sharpness)]),
        profile)
      let first = Double(rendered[0].level) / Double(profile.maxLevel)
      #expect(first >= start, "sharpness \(sharpness): first frame \(rendered[0].level)")
      // It settles on the (below break-away) drive of intensity 0.1.
      let steady = Double(rendered[250].level) / Double(profile.maxLevel)
      #expect(steady < start && steady > 0)
    }
  }

  @Test("Low levels are dithered: the mean of a steady stretch is the exact drive, within a fifth of a level")
  func dithering() throws {
    let pattern = HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 1, intensity: 0.15, sharpness: 0.5)])
    let rendered = try frames(pattern)
    let stretch = rendered[300..<900].map { Double($0.level) }
    let levels = Set(stretch)
    #expect(levels.count >= 2 && levels.count <= 3, "two neighbouring levels: \(levels)")
    let map = PerceptualMap(actuator: BoardProfile.simLRA.channels[0], frequencyControl: 80...300, mapping: .sensationLevel)
    let hz = Double(rendered[500].frequency)
    let exact = map.drive(acceleration: map.acceleration(intensity: 0.15, hz: hz), hz: hz) * 127
    let mean = stretch.reduce(0, +) / Double(stretch.count)
    // Each frame's level is chosen by the resonator's state (the orbit, phase included), not by
    // a carried rounding error, so the mean lands within 0.2 of a level; the felt level is the
    // target's (`characterize`: 0.0426 G at intensity 0.15 at f0, the model's 0.0426 G).
    #expect(abs(mean - exact) < 0.2, "mean \(mean) vs \(exact)")
  }

  @Test("A stop off resonance glides to f0 and brakes there")
  func stopGlidesToResonance() throws {
    for sharpness in [0.0, 1.0] {
      let rendered = try frames(
        HapticPattern(events: [event(.hapticContinuous, at: 0, duration: 0.2, intensity: 1, sharpness: sharpness)]))
      let tail = rendered[200...]
      let frequencies = tail.map(\.frequency)
      let start = rendered[199].frequency
      #expect(start != 170)
      // Monotonically toward 170 Hz, then braking there.
      let toward = zip(frequencies, frequencies.dropFirst()).allSatisfy { abs($1 - 170) <= abs($0 - 170) }
      #expect(toward, "sharpness \(sharpness): \(frequencies)")
      #expect(tail.contains { $0.level < 0 && $0.frequency == 170 })
      #expect(tail.count < 25, "stops within 25 frames: \(tail.count)")
    }
  }
}
