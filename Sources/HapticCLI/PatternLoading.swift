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
  /// extension, else its content); each warning goes to standard error (the first
  /// ``shownWarnings``, then how many more and where to see them all), errors fail the command.
  static func load(_ file: String, reading: AHAPReadingOptions) throws -> AHAPDocument {
    let reader = try reading.reader()
    let document: AHAPDocument
    do {
      document = try reader.read(contentsOf: file)
    } catch {
      throw CLIError("cannot load \(file):\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
    }
    try reading.refuseWarnings(document.warnings, of: file)
    for diagnostic in document.warnings.prefix(shownWarnings) {
      printError("\(file):\(diagnostic.line == nil ? " " : "")\(diagnostic)")
    }
    if document.warnings.count > shownWarnings {
      let more = document.warnings.count - shownWarnings
      printError("\(file): \(more) more warning\(more == 1 ? "" : "s") (hapticctl validate \(file) lists them all)")
    }
    return document
  }

  /// How many of a file's warnings a command that plays or renders it prints.
  static let shownWarnings = 5

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
