import Foundation
import HapticBoards

/// Where a built-in or user board's firmware and emulator sources are, and whether they need a
/// build.
///
/// A board file's `source` folder (relative to a board folder) is searched for, in order:
/// beside the board's own file (user boards); in each `--boards-dir`; in
/// `$HAPTICCTL_DATA_DIR/Boards`; in `$HAPTICCTL_BOARDS_PATH` and `~/.config/hapticctl/boards`;
/// in `Boards/` of a checkout holding the current folder; in the installed data beside the
/// executable (`PREFIX/bin/hapticctl` → `PREFIX/share/hapticctl/Boards`, written by
/// Scripts/install.sh, symbolic links to the executable resolved); in `Boards/` of the checkout
/// the executable was built in (`.build/debug/hapticctl`).
enum FirmwareLocator {
  /// The environment variable naming a data folder laid out like `PREFIX/share/hapticctl`: its
  /// `Boards/` is searched before the current checkout and the installed data.
  static let dataDirectoryVariable = "HAPTICCTL_DATA_DIR"

  /// The folder `source` (relative to a board folder) names, the first found in
  /// ``searchFolders(_:boardDirectories:environment:)``; `what` names it in the error
  /// ("firmware", "emulator").
  static func sourceFolder(_ board: BoardDefinition, source: String, what: String, boardDirectories: [String]) throws
    -> String
  {
    let candidates = searchFolders(board, boardDirectories: boardDirectories)
    for candidate in candidates {
      let folder = candidate + "/" + source
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue { return folder }
    }
    var shown = Array(candidates.prefix(3))
    if let installed = installedBoards(), !shown.contains(installed) { shown.append(installed) }
    throw CLIError(
      "the \(what) sources of \(board.id) (\(source)) were not found in \(shown.joined(separator: ", ")) "
        + "or \(max(0, candidates.count - shown.count)) other folders; install hapticctl with Scripts/install.sh "
        + "(it puts them in PREFIX/share/hapticctl/Boards beside PREFIX/bin/hapticctl), set \(dataDirectoryVariable) "
        + "to such a share/hapticctl folder, run from a hapticctl checkout or pass --boards-dir"
        + (what == "firmware" ? " (flash: or --firmware FILE)" : ""))
  }

  /// The folders a board's sources are searched in, in order (see ``FirmwareLocator``).
  static func searchFolders(
    _ board: BoardDefinition, boardDirectories: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String] {
    var candidates: [String] = []
    if let directory = board.directory { candidates.append(directory) }
    candidates += boardDirectories
    if let data = environment[dataDirectoryVariable], !data.isEmpty { candidates.append(data + "/Boards") }
    candidates += BoardCatalog.searchPath([], environment: environment)
    candidates += checkoutFolders(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    if let folder = executableFolder() {
      if let installed = installedBoards() { candidates.append(installed) }
      candidates += checkoutFolders(from: folder)
    }
    return candidates
  }

  /// The folder of the running executable, symbolic links resolved (a `/usr/local/bin/hapticctl`
  /// linked to `/opt/hapticctl/bin/hapticctl` is in `/opt/hapticctl/bin`).
  static func executableFolder() -> URL? {
    Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
  }

  /// Where Scripts/install.sh puts the board data for the running executable:
  /// `<executable's folder>/../share/hapticctl/Boards`.
  static func installedBoards() -> String? {
    executableFolder().map {
      $0.deletingLastPathComponent().appendingPathComponent("share").appendingPathComponent("hapticctl")
        .appendingPathComponent("Boards").path
    }
  }

  /// `Boards` in `start` and in each of its five parents (a checkout's folders).
  private static func checkoutFolders(from start: URL) -> [String] {
    var folders: [String] = []
    var folder = start
    for _ in 0..<6 {
      folders.append(folder.appendingPathComponent("Boards").path)
      folder.deleteLastPathComponent()
    }
    return folders
  }

  /// The firmware's source folder, then the shared folders its build also reads.
  static func firmwareFolders(_ board: BoardDefinition, firmware: BoardFile.Firmware, boardDirectories: [String])
    throws -> [String]
  {
    try ([firmware.source] + (firmware.shared ?? [])).map {
      try sourceFolder(board, source: $0, what: "firmware", boardDirectories: boardDirectories)
    }
  }

  /// True when the artifact is missing or older than a file in one of the source folders
  /// (their `build` folders aside).
  static func needsBuild(artifact: String, sources folders: [String]) -> Bool {
    guard let built = modified(artifact) else { return true }
    for folder in folders {
      let enumerator = FileManager.default.enumerator(atPath: folder)
      while let item = enumerator?.nextObject() as? String {
        if item.hasPrefix("build") { continue }
        if let date = modified(folder + "/" + item), date > built { return true }
      }
    }
    return false
  }

  /// Throws a clear error when the build that must make `artifact` (missing or older than its
  /// sources) in `folder` cannot write there — the installed `PREFIX/share/hapticctl/Boards`
  /// owned by root, say — instead of letting make fail on a permission; `what` names the build
  /// ("uno-hbridge emulator").
  static func requireWritable(_ folder: String, artifact: String, what: String) throws {
    let paths = [folder, folder + "/build", URL(fileURLWithPath: artifact).deletingLastPathComponent().path]
    for path in paths where FileManager.default.fileExists(atPath: path) && !FileManager.default.isWritableFile(atPath: path) {
      throw CLIError(
        "\(path) is not writable, and the \(what) built there (\(artifact)) is missing or older than its sources: "
          + "run Scripts/install.sh again (it builds every image when the AVR toolchain and simavr are installed; "
          + "as the user who installed it), or pass --boards-dir DIR with a writable copy of that Boards folder")
    }
  }

  private static func modified(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }
}
