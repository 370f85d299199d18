public import HapticCore

/// Why an engine or player operation failed: a code with Core Haptics' number where Apple has
/// one (`HapticCore.HapticErrorCode`) and a message naming the board or player.
public struct HapticEngineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The code (e.g. `engineNotRunning (-4805)`).
  public var code: HapticErrorCode
  /// What happened, in words.
  public var message: String

  /// Creates an error.
  public init(_ code: HapticErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) [\(code)]" }

  static func notRunning(_ what: String) -> HapticEngineError {
    HapticEngineError(.engineNotRunning, "\(what): the engine is not running (call start() first)")
  }
}

/// Why an engine stopped without being asked to (Core Haptics' `StoppedReason`, with the
/// board-specific reasons added).
public enum HapticEngineStoppedReason: Sendable, Hashable {
  /// Auto-shutdown after the idle timeout; the next play restarts the engine.
  case idleTimeout
  /// A players-finished handler returned ``HapticEngineFinishedAction/stopEngine``.
  case notifyWhenFinished
  /// The board went away (unplugged, port closed, link lost).
  case boardDisconnected
  /// The board restarted; players were invalidated (the reset handler runs too).
  case boardReset
  /// Anything else (a failure sending to the board).
  case systemError
}

/// What to do once every player has finished (Core Haptics' `FinishedAction`).
public enum HapticEngineFinishedAction: Sendable, Hashable {
  /// Stop the engine (the stopped handler gets ``HapticEngineStoppedReason/notifyWhenFinished``).
  case stopEngine
  /// Keep it running.
  case leaveEngineRunning
}
