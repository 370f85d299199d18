/// An error code with Core Haptics' numeric value, where Apple defines one.
///
/// Apple's `CHHapticError.Code` values (domain `com.apple.CoreHaptics`) are reused so that
/// code ported from Core Haptics can match on the same numbers. Codes hapticctl adds for
/// situations Apple has no code for carry `appleValue == nil`.
public struct HapticErrorCode: Hashable, Sendable, CustomStringConvertible {
  /// The stable, camel-case name of the code (Apple's case name where one exists).
  public let name: String
  /// Apple's raw value for this code, or `nil` for codes hapticctl defines itself.
  public let appleValue: Int?

  /// Creates a code. Prefer the predefined static members.
  public init(name: String, appleValue: Int?) {
    self.name = name
    self.appleValue = appleValue
  }

  /// `name (-4822)` for Apple codes, `name` for hapticctl's own.
  public var description: String {
    if let appleValue { return "\(name) (\(appleValue))" }
    return name
  }

  // MARK: Apple's codes

  /// Playback requested while the engine is stopped (-4805).
  public static let engineNotRunning = Self(name: "engineNotRunning", appleValue: -4805)
  /// The operation is not allowed in the current state (-4806).
  public static let operationNotPermitted = Self(name: "operationNotPermitted", appleValue: -4806)
  /// Starting the engine timed out (-4808).
  public static let engineStartTimeout = Self(name: "engineStartTimeout", appleValue: -4808)
  /// No haptic hardware (-4809).
  public static let notSupported = Self(name: "notSupported", appleValue: -4809)
  /// The board (Apple: server) failed to initialise (-4810).
  public static let serverInitFailed = Self(name: "serverInitFailed", appleValue: -4810)
  /// The connection to the board (Apple: server) was lost (-4811).
  public static let serverInterrupted = Self(name: "serverInterrupted", appleValue: -4811)
  /// The player was invalidated (-4812).
  public static let invalidPatternPlayer = Self(name: "invalidPatternPlayer", appleValue: -4812)
  /// The pattern data is corrupt: not valid JSON, or nested too deep (-4813).
  public static let invalidPatternData = Self(name: "invalidPatternData", appleValue: -4813)
  /// The pattern dictionary is malformed or lacks a required field (-4814).
  public static let invalidPatternDictionary = Self(
    name: "invalidPatternDictionary", appleValue: -4814)
  /// Bad engine configuration (-4816).
  public static let invalidEngineParameter = Self(name: "invalidEngineParameter", appleValue: -4816)
  /// Unknown parameter ID (-4820).
  public static let invalidParameterType = Self(name: "invalidParameterType", appleValue: -4820)
  /// Unknown event type (-4821).
  public static let invalidEventType = Self(name: "invalidEventType", appleValue: -4821)
  /// Bad event time (-4822).
  public static let invalidEventTime = Self(name: "invalidEventTime", appleValue: -4822)
  /// Bad event duration (-4823).
  public static let invalidEventDuration = Self(name: "invalidEventDuration", appleValue: -4823)
  /// Unknown or unusable audio resource (-4824).
  public static let invalidAudioResource = Self(name: "invalidAudioResource", appleValue: -4824)
  /// A resource limit was hit (-4825).
  public static let resourceNotAvailable = Self(name: "resourceNotAvailable", appleValue: -4825)
  /// An event entry is missing a required field or has a bad one (-4830).
  public static let badEventEntry = Self(name: "badEventEntry", appleValue: -4830)
  /// A parameter or parameter-curve entry is bad (-4831).
  public static let badParameterEntry = Self(name: "badParameterEntry", appleValue: -4831)
  /// An invalid (for example negative) time argument (-4840).
  public static let invalidTime = Self(name: "invalidTime", appleValue: -4840)
  /// An audio or haptic asset is missing (-4851).
  public static let fileNotFound = Self(name: "fileNotFound", appleValue: -4851)
  /// Uncategorised failure (-4898).
  public static let unknownError = Self(name: "unknownError", appleValue: -4898)
  /// Out of memory (-4899).
  public static let memoryError = Self(name: "memoryError", appleValue: -4899)

  // MARK: hapticctl's own codes (warnings and conditions Apple has no code for)

  /// A key the format does not define; it is ignored.
  public static let unknownKey = Self(name: "unknownKey", appleValue: nil)
  /// A key given twice in one object; the last one wins.
  public static let duplicateKey = Self(name: "duplicateKey", appleValue: nil)
  /// A value outside its parameter's range was clamped to the nearer bound.
  public static let valueClamped = Self(name: "valueClamped", appleValue: nil)
  /// A field was missing and took its default value.
  public static let defaultApplied = Self(name: "defaultApplied", appleValue: nil)
  /// A field has no effect on the event or entry it appears in.
  public static let ignoredField = Self(name: "ignoredField", appleValue: nil)
  /// A parameter curve breaks a convention (too many points, unsorted, absolute times...).
  public static let curveConvention = Self(name: "curveConvention", appleValue: nil)
  /// A continuous event longer than Apple's 30 s cap; hapticctl plays it whole.
  public static let longEvent = Self(name: "longEvent", appleValue: nil)
  /// A continuous event that is not sustained falls silent (its attack and decay done) well
  /// before its `EventDuration`; the rest of its duration plays nothing.
  public static let endsEarly = Self(name: "endsEarly", appleValue: nil)
  /// The pattern has no entries; it plays nothing.
  public static let emptyPattern = Self(name: "emptyPattern", appleValue: nil)
  /// One pattern entry holds more than one of Event, Parameter and ParameterCurve.
  public static let combinedEntry = Self(name: "combinedEntry", appleValue: nil)
  /// The file could not be read (permissions, not a regular file, I/O error).
  public static let fileUnreadable = Self(name: "fileUnreadable", appleValue: nil)
  /// The file is larger than the configured limit and was not read.
  public static let fileTooLarge = Self(name: "fileTooLarge", appleValue: nil)
  /// A waveform path leaves the folder of the pattern file.
  public static let pathEscapes = Self(name: "pathEscapes", appleValue: nil)
}
