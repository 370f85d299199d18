public import Foundation
import HapticAHAP
import HapticCore
import HapticEngine

/// Core Haptics' error domain.
public let CHHapticErrorDomain = "com.apple.CoreHaptics"

/// A Core Haptics error: Apple's codes and numbers, and a `localizedDescription` that says what
/// happened and where (Apple's `CHHapticError`).
public struct CHHapticError: Error, Sendable, Hashable, LocalizedError, CustomNSError, CustomStringConvertible {
  /// Apple's error codes (`CHHapticError.Code`), with their raw values.
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    case engineNotRunning = -4805
    case operationNotPermitted = -4806
    case engineStartTimeout = -4808
    case notSupported = -4809
    case serverInitFailed = -4810
    case serverInterrupted = -4811
    case invalidPatternPlayer = -4812
    case invalidPatternData = -4813
    case invalidPatternDictionary = -4814
    case invalidAudioSession = -4815
    case invalidEngineParameter = -4816
    case invalidParameterType = -4820
    case invalidEventType = -4821
    case invalidEventTime = -4822
    case invalidEventDuration = -4823
    case invalidAudioResource = -4824
    case resourceNotAvailable = -4825
    case badEventEntry = -4830
    case badParameterEntry = -4831
    case invalidTime = -4840
    case fileNotFound = -4851
    case insufficientPower = -4897
    case unknownError = -4898
    case memoryError = -4899
  }

  /// The code.
  public var code: Code
  /// What happened, naming the board, player, file or entry.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The Core Haptics error for a hapticctl error code (`unknownError` for codes Apple lacks).
  init(hapticctl code: HapticErrorCode, _ message: String) {
    self.init(code.appleValue.flatMap(Code.init(rawValue:)) ?? .unknownError, message)
  }

  /// The Core Haptics error for an engine error.
  init(_ error: HapticEngineError) { self.init(hapticctl: error.code, error.message) }

  /// `message (code raw)`.
  public var description: String { "\(message) [\(code) (\(code.rawValue))]" }
  public var errorDescription: String? { description }
  public static var errorDomain: String { CHHapticErrorDomain }
  public var errorCode: Int { code.rawValue }
  /// Carries the description, so `localizedDescription` says it as an `NSError` too.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

/// Runs `body`, turning hapticctl's errors into ``CHHapticError``s.
func bridged<T>(_ body: () throws(HapticEngineError) -> T) throws(CHHapticError) -> T {
  do {
    return try body()
  } catch {
    throw CHHapticError(error)
  }
}
