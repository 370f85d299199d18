import Foundation

/// Where calibrations of physical boards are kept on the host: one JSON file per board,
/// `FOLDER/calibrations/IDENTITY.json`, in the board-file folders (``BoardCatalog/searchPath(_:environment:)``:
/// `--boards-dir`, `$HAPTICCTL_BOARDS_PATH`, `~/.config/hapticctl/boards`). The first folder
/// holding a board's file wins; `calibrate --write` writes to the first folder of the path.
public struct CalibrationStore: Sendable {
  /// The calibrations found, one per board identity.
  public private(set) var calibrations: [BoardCalibration] = []
  /// Files that could not be read (named, with why), skipped.
  public private(set) var problems: [String] = []

  /// The subfolder of a board-file folder that holds calibrations.
  public static let subfolder = "calibrations"

  /// Reads every `calibrations/*.json` in `folders` (missing folders are fine).
  public static func load(folders: [String]) -> CalibrationStore {
    var store = CalibrationStore()
    var seen = Set<String>()
    for folder in folders {
      let directory = folder + "/" + subfolder
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
      for name in names {
        let path = directory + "/" + name
        do {
          let record = try JSONDecoder().decode(BoardCalibration.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
          guard record.identity + ".json" == name else {
            store.problems.append("\(path): its identity \(record.identity) does not match the file name; skipped")
            continue
          }
          if seen.insert(record.identity).inserted { store.calibrations.append(record) }
        } catch {
          store.problems.append("\(path): not a calibration record (\(error.localizedDescription)); skipped")
        }
      }
    }
    return store
  }

  /// The calibration of the board with identity key `identity`, if one is kept.
  public func calibration(identity: String?) -> BoardCalibration? {
    guard let identity else { return nil }
    return calibrations.first { $0.identity == identity }
  }

  /// The calibrations of boards of type `board`.
  public func calibrations(board: String) -> [BoardCalibration] {
    calibrations.filter { $0.board == board }
  }

  /// Writes `record` to `folder/calibrations/IDENTITY.json` atomically (creating the folder);
  /// returns the path.
  ///
  /// - Throws: ``BoardFileError`` naming the path when the folder or file cannot be written.
  public static func write(_ record: BoardCalibration, folder: String) throws(BoardFileError) -> String {
    let directory = folder + "/" + subfolder
    let path = directory + "/" + record.identity + ".json"
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      var data = try encoder.encode(record)
      data.append(0x0A)
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw BoardFileError(file: path, problems: [.init("", "cannot write the calibration: \(error.localizedDescription)")])
    }
    return path
  }
}
