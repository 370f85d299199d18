import Foundation
import HapticBoards

/// `calibrate --write`: a user board file, a copy of the board's with a channel's measured f0,
/// which overrides the board wherever hapticctl loads boards (docs/boards.md §3).
enum CalibratedBoardFile {
  /// Writes `<id>.json` with channel `channel`'s f0 set to `f0` (0.1 Hz) into the first of
  /// `folders`, else ~/.config/hapticctl/boards (created), atomically; returns its path.
  static func write(_ board: BoardDefinition, channel: Int, f0: Double, folders: [String]) throws -> String {
    var file = board.file
    file.channels[channel].f0Hz = (f0 * 10).rounded() / 10
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data: Data
    do {
      data = try encoder.encode(file)
      data.append(0x0A)
      // What is written must load as the board does (the board file's own rules).
      _ = try BoardDefinition.parse(data, path: nil)
    } catch {
      throw CLIError("--write: the measured f0 \(f0) Hz does not make a valid board file: \(error)")
    }
    let folder: String
    if let first = folders.first {
      folder = first
    } else if let home = ProcessInfo.processInfo.environment["HOME"] {
      folder = home + "/.config/hapticctl/boards"
    } else {
      throw CLIError("--write: no HOME to find ~/.config/hapticctl/boards; pass --boards-dir")
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw CLIError("--write: cannot create \(folder): \(error.localizedDescription)")
    }
    let path = folder + "/" + board.id + ".json"
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CLIError("--write: cannot write \(path): \(error.localizedDescription)")
    }
    return path
  }
}
