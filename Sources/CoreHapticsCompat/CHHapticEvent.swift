public import Foundation
import HapticCore

/// "As soon as possible" for every `atTime:` argument (Apple's `CHHapticTimeImmediate`).
public let CHHapticTimeImmediate: TimeInterval = 0

/// An event in a pattern (Apple's `CHHapticEvent`): a haptic transient or continuous vibration,
/// or an audio event.
public final class CHHapticEvent {
  /// The kind of event (Apple's `CHHapticEvent.EventType`).
  public struct EventType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let hapticTransient = EventType(rawValue: HapticEventType.hapticTransient.rawValue)
    public static let hapticContinuous = EventType(rawValue: HapticEventType.hapticContinuous.rawValue)
    public static let audioContinuous = EventType(rawValue: HapticEventType.audioContinuous.rawValue)
    public static let audioCustom = EventType(rawValue: HapticEventType.audioCustom.rawValue)
  }

  /// An event parameter (Apple's `CHHapticEvent.ParameterID`).
  public struct ParameterID: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let hapticIntensity = ParameterID(rawValue: "HapticIntensity")
    public static let hapticSharpness = ParameterID(rawValue: "HapticSharpness")
    public static let attackTime = ParameterID(rawValue: "AttackTime")
    public static let decayTime = ParameterID(rawValue: "DecayTime")
    public static let releaseTime = ParameterID(rawValue: "ReleaseTime")
    public static let sustained = ParameterID(rawValue: "Sustained")
    public static let audioVolume = ParameterID(rawValue: "AudioVolume")
    public static let audioPitch = ParameterID(rawValue: "AudioPitch")
    public static let audioPan = ParameterID(rawValue: "AudioPan")
    public static let audioBrightness = ParameterID(rawValue: "AudioBrightness")
  }

  /// The event's kind.
  public let type: EventType
  /// Its parameters, as given.
  public let eventParameters: [CHHapticEventParameter]
  /// Seconds from the pattern's start.
  public var relativeTime: TimeInterval
  /// Seconds (0: none given; a transient's is only logical).
  public var duration: TimeInterval
  /// The registered audio resource an `audioCustom` event plays, if made with one.
  public let audioResourceID: CHHapticAudioResourceID?

  /// An event without a duration (Apple: for transients; a continuous event without one has
  /// no fixed end, docs/semantics.md §6).
  public convenience init(eventType type: EventType, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval) {
    self.init(eventType: type, parameters: eventParams, relativeTime: time, duration: 0)
  }

  /// An event with a duration. Values are checked when the pattern is made
  /// (``CHHapticPattern``), not here, as in Core Haptics.
  public init(
    eventType type: EventType, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval,
    duration: TimeInterval
  ) {
    self.type = type
    eventParameters = eventParams
    relativeTime = time
    self.duration = duration
    audioResourceID = nil
  }

  /// An `audioCustom` event playing the registered resource `resID` once.
  public convenience init(
    audioResourceID resID: CHHapticAudioResourceID, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval
  ) {
    self.init(audioResourceID: resID, parameters: eventParams, relativeTime: time, duration: 0)
  }

  /// An `audioCustom` event playing the registered resource `resID`, cut (or, with the
  /// resource's `loopEnabled`, looped) to `duration` when it is above 0.
  public init(
    audioResourceID resID: CHHapticAudioResourceID, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval,
    duration: TimeInterval
  ) {
    type = .audioCustom
    eventParameters = eventParams
    relativeTime = time
    self.duration = duration
    audioResourceID = resID
  }
}

/// One parameter of an event (Apple's `CHHapticEventParameter`).
public final class CHHapticEventParameter {
  /// Which parameter.
  public let parameterID: CHHapticEvent.ParameterID
  /// Its value (normalised, 0…1 or −1…1; out-of-range values are clamped when played).
  public var value: Float

  /// Creates a parameter.
  public init(parameterID: CHHapticEvent.ParameterID, value: Float) {
    self.parameterID = parameterID
    self.value = value
  }
}
