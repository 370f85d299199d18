import ArgumentParser
import Foundation
import HapticAHAP
import HapticBoards
import HapticClip
import HapticCore
import HapticRenderer

/// Loading a pattern file for commands that play or render it.
enum PatternLoading {
  /// Reads `file` (AHAP, or a `.haptic` clip: ``AHAPReadingOptions/inputFormat``, else its
  /// extension, else its content); warnings go to standard error as one summary line, errors
  /// fail the command.
  static func load(_ file: String, reading: AHAPReadingOptions) throws -> AHAPDocument {
    let reader = try reading.reader()
    do {
      let document = try reader.read(contentsOf: file)
      if !document.warnings.isEmpty {
        let count = document.warnings.count
        printError(
          "\(file): \(count) warning\(count == 1 ? "" : "s") (hapticctl validate \(file) lists them)")
      }
      return document
    } catch {
      throw CLIError("cannot load \(file):\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
    }
  }

  /// The profile of board `id` (built-in or from the user board folders), or a usage error
  /// naming the known ids.
  static func profile(_ id: String, boards: BoardOptions) throws -> BoardProfile {
    try boards.board(id).profile
  }
}

/// Writes a line to standard error.
func printError(_ text: String) {
  var stderr = StandardError()
  print(text, to: &stderr)
}

/// Standard error as a `TextOutputStream` (write failures are ignored: there is nowhere left
/// to report them).
struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    try? FileHandle.standardError.write(contentsOf: Data(string.utf8))
  }
}
