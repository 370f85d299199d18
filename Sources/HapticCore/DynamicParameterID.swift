/// A dynamic (pattern-wide, time-varying) parameter, as in AHAP `Parameter` and `ParameterCurve`
/// entries and Core Haptics' `CHHapticDynamicParameter.ID`.
public enum DynamicParameterID: String, Sendable, Hashable, CaseIterable, Codable {
  /// Scales haptic intensity (multiplicative, 0 to 1).
  case hapticIntensityControl = "HapticIntensityControl"
  /// Offsets haptic sharpness (additive, -1 to 1); continuous haptic events only.
  case hapticSharpnessControl = "HapticSharpnessControl"
  /// Offsets haptic attack time (additive).
  case hapticAttackTimeControl = "HapticAttackTimeControl"
  /// Offsets haptic decay time (additive).
  case hapticDecayTimeControl = "HapticDecayTimeControl"
  /// Offsets haptic release time (additive).
  case hapticReleaseTimeControl = "HapticReleaseTimeControl"
  /// Scales audio volume (multiplicative, 0 to 1).
  case audioVolumeControl = "AudioVolumeControl"
  /// Offsets audio pan (additive).
  case audioPanControl = "AudioPanControl"
  /// Offsets audio pitch (additive).
  case audioPitchControl = "AudioPitchControl"
  /// Offsets audio brightness (additive).
  case audioBrightnessControl = "AudioBrightnessControl"
  /// Offsets audio attack time (additive).
  case audioAttackTimeControl = "AudioAttackTimeControl"
  /// Offsets audio decay time (additive).
  case audioDecayTimeControl = "AudioDecayTimeControl"
  /// Offsets audio release time (additive).
  case audioReleaseTimeControl = "AudioReleaseTimeControl"

  /// How a control value combines with the event's own parameter value.
  public enum Combination: Sendable, Hashable {
    /// event value × control value (intensity and volume).
    case multiply
    /// event value + control value (everything else).
    case add
  }

  /// Multiplicative for intensity and volume, additive otherwise (Apple's rule).
  public var combination: Combination {
    switch self {
    case .hapticIntensityControl, .audioVolumeControl: return .multiply
    default: return .add
    }
  }

  /// The accepted range: 0…1 for the multiplicative controls, -1…1 for the additive ones.
  public var range: ClosedRange<Double> { combination == .multiply ? 0...1 : -1...1 }

  /// The neutral value: 1 for multiplicative controls, 0 for additive ones.
  public var defaultValue: Double { combination == .multiply ? 1 : 0 }

  /// True for the `Haptic*` controls, which touch haptic events only.
  public var isHaptic: Bool { rawValue.hasPrefix("Haptic") }

  /// The event parameter this control modifies.
  public var target: EventParameterID {
    switch self {
    case .hapticIntensityControl: return .hapticIntensity
    case .hapticSharpnessControl: return .hapticSharpness
    case .hapticAttackTimeControl, .audioAttackTimeControl: return .attackTime
    case .hapticDecayTimeControl, .audioDecayTimeControl: return .decayTime
    case .hapticReleaseTimeControl, .audioReleaseTimeControl: return .releaseTime
    case .audioVolumeControl: return .audioVolume
    case .audioPanControl: return .audioPan
    case .audioPitchControl: return .audioPitch
    case .audioBrightnessControl: return .audioBrightness
    }
  }

  /// The position of this case in `allCases` (0…11), for array-indexed tables.
  public var ordinal: Int {
    switch self {
    case .hapticIntensityControl: return 0
    case .hapticSharpnessControl: return 1
    case .hapticAttackTimeControl: return 2
    case .hapticDecayTimeControl: return 3
    case .hapticReleaseTimeControl: return 4
    case .audioVolumeControl: return 5
    case .audioPanControl: return 6
    case .audioPitchControl: return 7
    case .audioBrightnessControl: return 8
    case .audioAttackTimeControl: return 9
    case .audioDecayTimeControl: return 10
    case .audioReleaseTimeControl: return 11
    }
  }

  /// Clamps `value` into ``range``.
  public func clamp(_ value: Double) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
  }

  /// Applies a control value to an event's parameter value and clamps the result to the event
  /// parameter's range (Apple's combination rule).
  public func apply(control: Double, to eventValue: Double) -> Double {
    let combined = combination == .multiply ? eventValue * control : eventValue + control
    return target.clamp(combined)
  }
}
