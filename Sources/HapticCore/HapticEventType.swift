/// The kind of a ``HapticEvent``, spelled as in AHAP files and Core Haptics' `CHHapticEvent.EventType`.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable, Codable {
  /// A short tap of fixed, system-defined length; its duration is only logical.
  case hapticTransient = "HapticTransient"
  /// A vibration of arbitrary length with an attack/decay/release envelope.
  case hapticContinuous = "HapticContinuous"
  /// A generated tone; same envelope logic as ``hapticContinuous``. Never drives an actuator.
  case audioContinuous = "AudioContinuous"
  /// A client waveform played from a file. Never drives an actuator.
  case audioCustom = "AudioCustom"

  /// True for the two haptic kinds, which drive the actuator.
  public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }

  /// True for the two audio kinds, which only make sound.
  public var isAudio: Bool { !isHaptic }

  /// True for kinds whose ``HapticEvent/duration`` is a playing length with an envelope.
  public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }

  /// The event parameters that have an effect on events of this kind.
  public var applicableParameters: [EventParameterID] {
    switch self {
    case .hapticTransient:
      return [.hapticIntensity, .hapticSharpness]
    case .hapticContinuous:
      return [.hapticIntensity, .hapticSharpness, .attackTime, .decayTime, .releaseTime, .sustained]
    case .audioContinuous:
      return [
        .audioVolume, .audioPitch, .audioPan, .audioBrightness,
        .attackTime, .decayTime, .releaseTime, .sustained,
      ]
    case .audioCustom:
      return [
        .audioVolume, .audioPitch, .audioPan, .audioBrightness,
        .attackTime, .decayTime, .releaseTime, .sustained,
      ]
    }
  }
}
