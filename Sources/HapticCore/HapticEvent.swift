/// One event of a pattern: what plays, when, and for how long.
///
/// The counterpart of Core Haptics' `CHHapticEvent` and of an AHAP `Event` entry. Parameters that
/// are not given take ``EventParameterID/defaultValue(for:)``; ``value(of:)`` resolves that.
public struct HapticEvent: Sendable, Hashable {
  /// What kind of event this is.
  public var type: HapticEventType
  /// Start time in seconds from the start of the pattern (≥ 0).
  public var time: Double
  /// The `EventDuration` in seconds, or `nil` when the file gives none.
  ///
  /// For continuous events this is the time before the release begins; for transients it is a
  /// logical length only (it counts for the pattern duration and loop points).
  public var duration: Double?
  /// The `EventParameters` given for the event, at most one per ID, in file order.
  public var parameters: [EventParameter]
  /// `EventWaveformPath` of an `AudioCustom` event, relative to the pattern file's folder.
  public var waveformPath: String?
  /// `EventWaveformUseVolumeEnvelope` (`AudioCustom`), or `nil` when not given (default true).
  public var waveformUsesVolumeEnvelope: Bool?
  /// `EventWaveformLoopEnabled` (`AudioCustom`), or `nil` when not given (default false).
  public var waveformLoopEnabled: Bool?

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - type: the event kind.
  ///   - time: start time in seconds from the pattern start.
  ///   - duration: `EventDuration` in seconds, if any.
  ///   - parameters: event parameters; later entries for the same ID replace earlier ones.
  ///   - waveformPath: the audio file of an `AudioCustom` event.
  ///   - waveformUsesVolumeEnvelope: `EventWaveformUseVolumeEnvelope`, if given.
  ///   - waveformLoopEnabled: `EventWaveformLoopEnabled`, if given.
  public init(
    _ type: HapticEventType, time: Double, duration: Double? = nil,
    parameters: [EventParameter] = [], waveformPath: String? = nil,
    waveformUsesVolumeEnvelope: Bool? = nil, waveformLoopEnabled: Bool? = nil
  ) {
    self.type = type
    self.time = time
    self.duration = duration
    self.parameters = []
    self.waveformPath = waveformPath
    self.waveformUsesVolumeEnvelope = waveformUsesVolumeEnvelope
    self.waveformLoopEnabled = waveformLoopEnabled
    for parameter in parameters { set(parameter.id, parameter.value) }
  }

  /// The value of `id` for this event: the given value, else the default for the event type.
  public func value(of id: EventParameterID) -> Double {
    if let given = parameters.last(where: { $0.id == id }) { return given.value }
    return id.defaultValue(for: type)
  }

  /// The value given in the file for `id`, or `nil` when it is left to its default.
  public func givenValue(of id: EventParameterID) -> Double? {
    parameters.last(where: { $0.id == id })?.value
  }

  /// Sets `id` to `value`, replacing an earlier entry for the same ID in place.
  public mutating func set(_ id: EventParameterID, _ value: Double) {
    if let index = parameters.firstIndex(where: { $0.id == id }) {
      parameters[index].value = value
    } else {
      parameters.append(EventParameter(id, value))
    }
  }

  /// Whether a continuous envelope holds until the duration ends (`Sustained` ≠ 0).
  public var isSustained: Bool { value(of: .sustained) != 0 }

  /// The end of the event's logical length: `time + (duration ?? 0)`.
  ///
  /// This is what Apple's pattern-duration rule uses; it excludes any release tail.
  public var logicalEnd: Double { time + (duration ?? 0) }
}
