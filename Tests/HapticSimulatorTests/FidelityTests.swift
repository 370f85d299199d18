import HapticRenderer
import Testing

@testable import HapticSimulator

/// Issue 12's perceptual targets, measured on every built-in board's simulated actuator by
/// ``BoardCharacterization`` (what `hapticctl characterize` prints): any regression fails here.
@Suite("Perceptual fidelity (simulated acceleration)")
struct FidelityTests {
  static func map(_ profile: BoardProfile) throws -> ChannelResponseMap {
    let maps = try BoardCharacterization(configuration: SimulatorConfiguration(profile: profile)).measure()
    #expect(maps.count == profile.channels.count)
    return try #require(maps.first)
  }

  @Test("Every intensity step is felt, the top step too, and intensity ≥ 0.1 is above threshold", arguments: BoardProfile.builtIn)
  func intensitySteps(_ profile: BoardProfile) throws {
    let map = try Self.map(profile)
    #expect(map.sweeps.map(\.sharpness) == BoardCharacterization.sharpnessValues)
    for sweep in map.sweeps {
      let label = "\(profile.id) sharpness \(sweep.sharpness)"
      #expect(sweep.points.count == 20, "\(label)")
      #expect(sweep.smallestStepDecibels >= 0.3, "\(label): a +0.05 step adds only \(sweep.smallestStepDecibels) dB")
      #expect(sweep.lastTenthDecibels >= 1, "\(label): 0.9 → 1.0 adds only \(sweep.lastTenthDecibels) dB")
      for point in sweep.points where point.intensity >= 0.1 - 1e-9 {
        #expect(point.steady >= ChannelResponseMap.detectionThreshold, "\(label) intensity \(point.intensity): \(point.steady) G")
      }
    }
  }

  @Test("Onsets do not overshoot: peak / steady ≤ 1.25 at intensity 0.5 and 1", arguments: BoardProfile.builtIn)
  func overshoot(_ profile: BoardProfile) throws {
    for sweep in try Self.map(profile).sweeps {
      for intensity in [0.5, 1.0] {
        let point = try #require(sweep.point(at: intensity))
        #expect(point.overshoot <= 1.25, "\(profile.id) sharpness \(sweep.sharpness) intensity \(intensity): \(point.overshoot)")
      }
    }
  }

  /// A continuous event stops within 13 ms on sim-lra (it glides to f0 and brakes there,
  /// docs/semantics.md §15.3); the other boards as before the perceptual model.
  @Test("Continuous events stop promptly", arguments: BoardProfile.builtIn)
  func continuousStops(_ profile: BoardProfile) throws {
    let before: [String: [(full: Double, half: Double)]] = [
      "sim-erm": [(135.9, 66.1), (49.2, 19.2), (31.9, 9.1), (24.1, 9.7), (18.2, 7.6)],
      "uno-drv2605l": Array(repeating: (12.1, 3.3), count: 5),
    ]
    for (index, sweep) in try Self.map(profile).sweeps.enumerated() {
      let full = try #require(sweep.points.last).stopMilliseconds
      let half = try #require(sweep.point(at: 0.5)).stopMilliseconds
      let limit: (full: Double, half: Double) = before[profile.id]?[index] ?? (13, 13)
      #expect(full <= limit.full + 0.2, "\(profile.id) sharpness \(sweep.sharpness): \(full) ms at intensity 1")
      #expect(half <= limit.half + 0.2, "\(profile.id) sharpness \(sweep.sharpness): \(half) ms at intensity 0.5")
    }
  }

  @Test("sim-lra: ≥ 10 distinguishable steps at sharpness 0.5, ≥ 6 at 0 and 1; tilt ≤ 12 dB")
  func simLRASteps() throws {
    let map = try Self.map(.simLRA)
    let steps = Dictionary(uniqueKeysWithValues: map.sweeps.map { ($0.sharpness, $0.distinguishableSteps) })
    #expect(try #require(steps[0.5]) >= 10)
    #expect(try #require(steps[0]) >= 6)
    #expect(try #require(steps[1]) >= 6)
    #expect(map.tiltDecibels <= 12)
    // The band keeps sharpness meaningful: the drive frequency rises with sharpness.
    let frequencies = map.sweeps.map(\.frequency)
    #expect(frequencies == frequencies.sorted() && Set(frequencies).count == frequencies.count)
    let band = try #require(map.sharpnessBand)
    #expect(band.upperBound - band.lowerBound >= 40)
  }

  @Test("A transient over a continuous event keeps ≥ 90 % of its peak", arguments: BoardProfile.builtIn)
  func transientPriority(_ profile: BoardProfile) throws {
    let map = try Self.map(profile)
    #expect(map.transientOverContinuous.count == 3)
    for mix in map.transientOverContinuous {
      #expect(mix.ratio >= 0.9, "\(profile.id) over sharpness \(mix.continuousSharpness): \(mix.ratio)")
    }
  }

  /// Lone transients (intensity 1, sharpness 0 / 0.5 / 1): sim-lra's crispness targets, and
  /// the other boards no worse than before the perceptual model (docs/semantics.md §11.5).
  @Test("Lone transients keep their crispness", arguments: BoardProfile.builtIn)
  func loneTransients(_ profile: BoardProfile) throws {
    let before: [String: [(peak: Double, rise: Double, stop: Double)]] = [
      "uno-drv2605l": [(0.763, 7.2, 9.1), (0.770, 7.2, 9.1), (0.715, 6.6, 8.9)],
      "sim-erm": [(0.843, 53.0, 49.8), (0.530, 36.5, 15.8), (0.248, 21.9, 9.6)],
    ]
    let transients = try Self.map(profile).transients
    #expect(transients.map(\.sharpness) == [0, 0.5, 1])
    for (index, figures) in transients.enumerated() {
      let label = "\(profile.id) sharpness \(figures.sharpness)"
      let rise = try #require(figures.riseMilliseconds, "\(label)")
      let stop = try #require(figures.stopMilliseconds, "\(label)")
      if let reference = before[profile.id]?[index] {
        #expect(figures.peak >= reference.peak * 0.995, "\(label): peak \(figures.peak) G")
        #expect(rise <= reference.rise + 0.1, "\(label): rise \(rise) ms")
        #expect(stop <= reference.stop + 0.1, "\(label): stop \(stop) ms")
      } else {
        #expect(figures.peak >= 0.75, "\(label): peak \(figures.peak) G")
        #expect(rise <= 9, "\(label): rise \(rise) ms")
        #expect(stop <= 12, "\(label): stop \(stop) ms")
      }
    }
  }

  @Test("An amplitude-only board has no band and no tilt; sharpness sets crispness only")
  func amplitudeOnly() throws {
    let map = try Self.map(.unoDRV2605L)
    #expect(map.sharpnessBand == nil)
    #expect(map.tiltDecibels < 0.1)
    #expect(Set(map.sweeps.map(\.frequency)) == [175])
  }
}
