import Foundation
public import HapticRenderer

/// One channel's measured response map (``BoardCharacterization``) and the figures a haptics
/// engineer judges a board by.
public struct ChannelResponseMap: Sendable, Hashable {
  /// The vibrotactile detection threshold the figures use, G.
  public static let detectionThreshold = ResponseAnalyzer.detectionThreshold
  /// The amplitude JND the distinguishable steps use, dB.
  public static let stepDecibels = 2.5

  /// One intensity of a sweep.
  public struct SteadyPoint: Sendable, Hashable {
    /// The event's intensity.
    public var intensity: Double
    /// The largest |acceleration| over 0.25 … 0.35 s, G.
    public var steady: Double
    /// The largest |acceleration| of the whole run, G.
    public var peak: Double
    /// Event start → the first |acceleration| at 90 % of `steady`, ms.
    public var riseMilliseconds: Double?
    /// Event end → the last |acceleration| at the detection threshold, ms (0 when it was
    /// never felt after the end).
    public var stopMilliseconds: Double

    /// `peak / steady` (1 for a silent point).
    public var overshoot: Double { steady > 0 ? peak / steady : 1 }
  }

  /// The intensity sweep at one sharpness.
  public struct SharpnessSweep: Sendable, Hashable {
    /// The events' sharpness.
    public var sharpness: Double
    /// The drive frequency the frames carry (f0 on amplitude-only boards), Hz.
    public var frequency: Double
    /// One point per intensity, in increasing intensity.
    public var points: [SteadyPoint]

    /// The smallest gain of one intensity step, dB (−∞ when a step loses level).
    public var smallestStepDecibels: Double {
      zip(points, points.dropFirst()).map { decibels($1.steady, over: $0.steady) }.min() ?? 0
    }

    /// The gain of the last step, e.g. 0.95 → 1.0, dB.
    public var topStepDecibels: Double {
      guard points.count >= 2 else { return 0 }
      return decibels(points[points.count - 1].steady, over: points[points.count - 2].steady)
    }

    /// The smallest gain of a +0.1 intensity step (0.05 → 0.15, 0.1 → 0.2, … 0.9 → 1.0), dB.
    public var smallestTenthStepDecibels: Double {
      zip(points, points.dropFirst(2)).map { decibels($1.steady, over: $0.steady) }.min() ?? 0
    }

    /// The gain from intensity 0.9 to 1.0, dB.
    public var lastTenthDecibels: Double {
      guard let top = points.last, let below = points.last(where: { $0.intensity <= top.intensity - 0.1 + 1e-9 })
      else { return 0 }
      return decibels(top.steady, over: below.steady)
    }

    /// The lowest intensity whose steady level reaches the detection threshold.
    public var lowestFeltIntensity: Double? {
      points.first { $0.steady >= ChannelResponseMap.detectionThreshold }?.intensity
    }

    /// Levels of the sweep at least 2.5 dB apart, counted from the first one above the
    /// detection threshold upward (greedy): the intensity steps a user can tell apart.
    public var distinguishableSteps: Int {
      var count = 0
      var last = 0.0
      for point in points where point.steady >= ChannelResponseMap.detectionThreshold {
        if count == 0 || decibels(point.steady, over: last) >= ChannelResponseMap.stepDecibels {
          count += 1
          last = point.steady
        }
      }
      return count
    }

    /// The point at `intensity`, if swept.
    public func point(at intensity: Double) -> SteadyPoint? {
      points.first { abs($0.intensity - intensity) < 1e-9 }
    }

    /// The largest overshoot at intensity 0.5 and 1.
    public var overshoot: Double {
      [0.5, 1].compactMap { point(at: $0)?.overshoot }.max() ?? 1
    }
  }

  /// A lone full-intensity transient.
  public struct TransientFigures: Sendable, Hashable {
    /// Its sharpness.
    public var sharpness: Double
    /// Peak |acceleration|, G.
    public var peak: Double
    /// Drive start → envelope at 90 % of the peak, ms.
    public var riseMilliseconds: Double?
    /// Drive end → envelope below the detection threshold for good, ms.
    public var stopMilliseconds: Double?
    /// How long the felt envelope (peak |acceleration| per ms) stays at or above 10 % of the
    /// peak, ms.
    public var aboveTenthMilliseconds: Double?
    /// The felt envelope's peak in each of the first five 5 ms windows from the first drive, G
    /// (floored at the detection threshold).
    public var windows: [Double]
  }

  /// Intensity 1 at one sharpness (the fine sweep, steps of 1/8), or a clip's middle frequency.
  public struct FullIntensityPoint: Sendable, Hashable {
    /// The event's sharpness.
    public var sharpness: Double
    /// The drive frequency the frames carry, Hz.
    public var frequency: Double
    /// The largest |acceleration| over 0.25 … 0.35 s, G.
    public var steady: Double
  }

  /// A transient (1, 1) over a continuous event (0.6, s).
  public struct TransientOverContinuous: Sendable, Hashable {
    /// The continuous event's sharpness.
    public var continuousSharpness: Double
    /// Peak over 0.2 … 0.25 s, G.
    public var peak: Double
    /// The same transient alone, G.
    public var alonePeak: Double

    /// `peak / alonePeak`.
    public var ratio: Double { alonePeak > 0 ? peak / alonePeak : 0 }
  }

  /// The board id.
  public var board: String
  /// The channel.
  public var channel: Int
  /// LRA or ERM.
  public var kind: ActuatorKind
  /// The actuator's resonant (LRA) or rated (ERM) frequency, Hz.
  public var resonantFrequency: Double
  /// The sharpness band in Hz, or `nil` on amplitude-only boards.
  public var sharpnessBand: ClosedRange<Int>?
  /// One sweep per sharpness.
  public var sweeps: [SharpnessSweep]
  /// Lone transients at sharpness 0, 0.5, 1.
  public var transients: [TransientFigures]
  /// Transient over continuous, continuous sharpness 0, 0.5, 1.
  public var transientOverContinuous: [TransientOverContinuous]
  /// Intensity 1 at sharpness 0, 1/8, … 1.
  public var fullIntensity: [FullIntensityPoint]
  /// A `.haptic` clip at amplitude 1 and frequency 0.5 (the middle of Meta's range; sharpness
  /// √0.5, played by the amplitude law).
  public var clipMiddle: FullIntensityPoint

  /// The strongest full-intensity steady level over the fine sweep, G.
  public var strongest: Double { fullIntensity.map(\.steady).max() ?? 0 }

  /// The full-intensity steady level at `sharpness` (fine sweep) over ``strongest``.
  public func fractionOfStrongest(at sharpness: Double) -> Double? {
    guard strongest > 0, let point = fullIntensity.first(where: { abs($0.sharpness - sharpness) < 1e-9 }) else { return nil }
    return point.steady / strongest
  }

  /// The spread of the full-intensity steady level across sharpness (the fine sweep), dB.
  public var tiltDecibels: Double {
    let tops = fullIntensity.map(\.steady)
    guard let high = tops.max(), let low = tops.min() else { return 0 }
    return decibels(high, over: low)
  }

  /// The rise at full intensity in cycles of the resonant frequency, per sharpness.
  public func riseCycles(_ sweep: SharpnessSweep) -> Double? {
    sweep.points.last?.riseMilliseconds.map { $0 / 1000 * resonantFrequency }
  }
}

/// 20·log10(a / b) (−∞ when a is 0, +∞ when only b is).
func decibels(_ a: Double, over b: Double) -> Double {
  guard a > 0 else { return -.infinity }
  guard b > 0 else { return .infinity }
  return 20 * log10(a / b)
}
