public import Foundation

/// `localizedDescription` says what happened (Foundation's default for a Swift error is "The
/// operation could not be completed"), as Core Haptics' errors do.
extension HapticEngineError: LocalizedError {
  /// The message and the code, e.g. "player 3: the engine is not running (call start() first)
  /// [engineNotRunning (-4805)]".
  public var errorDescription: String? { description }
}
