public import Foundation
import HapticRenderer

/// Every board hapticctl knows: the built-in boards, then user boards from `--boards-dir`,
/// `$HAPTICCTL_BOARDS_PATH` (colon-separated folders) and `~/.config/hapticctl/boards`. A user
/// board with a built-in id replaces it (so a board can be re-tuned without rebuilding).
public struct BoardCatalog: Sendable {
  /// The boards, built-in first, each id once.
  public private(set) var boards: [BoardDefinition]
  /// User board files that could not be used, with why.
  public private(set) var problems: [BoardFileError]

  /// The built-in boards only.
  public static let builtIn: BoardCatalog = {
    var boards: [BoardDefinition] = []
    for (name, json) in BuiltInBoards.files {
      do {
        boards.append(try BoardDefinition.parse(Data(json.utf8), path: nil))
      } catch {
        preconditionFailure("built-in board \(name) is invalid: \(error)")
      }
    }
    return BoardCatalog(boards: boards, problems: [])
  }()

  private init(boards: [BoardDefinition], problems: [BoardFileError]) {
    self.boards = boards
    self.problems = problems
  }

  /// The folders user boards load from, in order: `directories` (from `--boards-dir`), then
  /// `$HAPTICCTL_BOARDS_PATH`, then `~/.config/hapticctl/boards`.
  public static func searchPath(_ directories: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
    -> [String]
  {
    var folders = directories
    if let path = environment["HAPTICCTL_BOARDS_PATH"] {
      folders += path.split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }
    if let home = environment["HOME"] { folders.append(home + "/.config/hapticctl/boards") }
    return folders
  }

  /// The built-in boards plus every `*.json` board file in `folders` (missing default folders
  /// are fine; a named folder that does not exist is a problem).
  public static func load(folders: [String], required: Set<String> = []) -> BoardCatalog {
    var catalog = builtIn
    for folder in folders {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        if required.contains(folder) {
          catalog.problems.append(BoardFileError(file: folder, problems: [.init("", "no such folder")]))
        }
        continue
      }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
      for name in names {
        do {
          catalog.add(try BoardDefinition.load(folder + "/" + name))
        } catch {
          catalog.problems.append(error)
        }
      }
    }
    return catalog
  }

  private mutating func add(_ board: BoardDefinition) {
    if let index = boards.firstIndex(where: { $0.id == board.id }) {
      boards[index] = board
    } else {
      boards.append(board)
    }
  }

  /// The board `id`, if known.
  public func board(_ id: String) -> BoardDefinition? {
    boards.first { $0.id == id }
  }

  /// Each board's id and serial rate (`link.baud`), in the catalog's order: what a probe tries
  /// on a port whose board is not known yet (`HapticTransport.LineRates(boards:)`).
  public var linkRates: [(id: String, baud: Int)] { boards.map { ($0.id, $0.file.link.baud) } }

  /// Boards whose USB ids include `vid:pid` (hexadecimal, any case).
  public func boards(vid: String, pid: String) -> [BoardDefinition] {
    boards.filter { board in
      board.file.usb.contains { $0.vid.lowercased() == vid.lowercased() && $0.pid.lowercased() == pid.lowercased() }
    }
  }
}
