/// An event parameter, spelled as in AHAP's `ParameterID` and Core Haptics' `CHHapticEvent.ParameterID`.
///
/// Ranges follow Apple's headers. Defaults Apple does not publish follow the values Apple's own
/// Unity plug-in hard-codes (see docs/semantics.md, "Defaults").
public enum EventParameterID: String, Sendable, Hashable, CaseIterable, Codable {
  /// Perceived strength, 0 (maximum attenuation) to 1.
  case hapticIntensity = "HapticIntensity"
  /// Crispness, 0 (round, soft) to 1 (sharp, precise).
  case hapticSharpness = "HapticSharpness"
  /// Envelope attack length, 0 to 1, growing exponentially (not seconds).
  case attackTime = "AttackTime"
  /// Envelope decay length of a non-sustained envelope, 0 to 1, exponential.
  case decayTime = "DecayTime"
  /// Envelope release length after the event's duration, 0 to 1, exponential.
  case releaseTime = "ReleaseTime"
  /// 1: attack / sustain / release envelope; 0: attack / decay, ending when decay bottoms out.
  case sustained = "Sustained"
  /// Audio volume, 0 to 1.
  case audioVolume = "AudioVolume"
  /// Audio pitch shift, -1 to 1.
  case audioPitch = "AudioPitch"
  /// Stereo position, -1 (left) to 1 (right).
  case audioPan = "AudioPan"
  /// High-frequency content of the audio, 0 to 1.
  case audioBrightness = "AudioBrightness"

  /// The closed range Apple accepts; values outside it are clamped to the nearer bound.
  public var range: ClosedRange<Double> {
    switch self {
    case .audioPitch, .audioPan: return -1...1
    default: return 0...1
    }
  }

  /// The value an event of `type` takes when the parameter is not given.
  ///
  /// - Parameter type: the event's type; intensity and sharpness differ between transients and
  ///   continuous events.
  public func defaultValue(for type: HapticEventType) -> Double {
    switch self {
    case .hapticIntensity: return type == .hapticTransient ? 0.75 : 0.6
    case .hapticSharpness: return type == .hapticTransient ? 0.5 : 0.422601
    case .attackTime, .decayTime, .releaseTime: return 0
    case .sustained: return 1
    case .audioVolume, .audioBrightness: return 1
    case .audioPitch, .audioPan: return 0
    }
  }

  /// Clamps `value` into ``range``.
  public func clamp(_ value: Double) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
  }
}

/// One `EventParameters` entry of an event: an ID and its value.
public struct EventParameter: Sendable, Hashable {
  /// Which parameter this sets.
  public var id: EventParameterID
  /// The value, within ``EventParameterID/range``.
  public var value: Double

  /// Creates an event parameter.
  public init(_ id: EventParameterID, _ value: Double) {
    self.id = id
    self.value = value
  }
}
