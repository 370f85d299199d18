import Foundation

/// Small helpers over Foundation's file handles.
enum FileHandleWriter {
  /// Writes `text` to standard error, ignoring failures (there is nowhere left to report them).
  static func writeStandardError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
  }
}
