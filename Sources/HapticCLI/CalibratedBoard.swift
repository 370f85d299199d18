import HapticBoards
import HapticTransport
import HapticWire

/// The f0 each channel of one physical board plays with, and where it came from (issue 32,
/// point 4; docs/boards.md §3): a calibration the board keeps and announces, else one kept on
/// this host for this board's identity, else the board file's. The profile of ``definition``
/// is what `send` renders for.
struct CalibratedBoard {
  /// Where a channel's f0 comes from.
  enum Source: String {
    case boardFile = "board file"
    case board = "calibrated on the board"
    case host = "calibration kept on this host"
  }

  /// A channel's f0 (nil for an ERM: it has no resonance) and its source.
  struct Channel {
    var f0: Double?
    var source: Source
  }

  /// The board file with the calibrated f0s in, nil when no board file is known for the board.
  var definition: BoardDefinition?
  /// Per channel, as the board announces them.
  var channels: [Channel]

  /// Channel `index` as resolved, nil past the board's channels.
  func channel(_ index: Int) -> Channel? {
    channels.indices.contains(index) ? channels[index] : nil
  }

  /// Resolves the board announced by `capabilities`, known as `identity`, against the board
  /// files of `catalog` and the calibrations of `store`.
  static func resolve(
    _ capabilities: BoardCapabilities, identity: BoardIdentity, catalog: BoardCatalog, store: CalibrationStore
  ) -> CalibratedBoard {
    let file = catalog.board(capabilities.boardID)
    let record = store.calibration(identity: identity.key).flatMap { $0.board == capabilities.boardID ? $0 : nil }
    var overrides: [Int: Double] = [:]
    var channels: [Channel] = []
    for (index, channel) in capabilities.channels.enumerated() {
      guard channel.kind == .lra else {
        channels.append(Channel(f0: nil, source: .boardFile))
        continue
      }
      let fileF0 = file?.file.channels.indices.contains(index) == true ? file?.file.channels[index].f0Hz : nil
      if channel.calibration == .calibrated {
        channels.append(Channel(f0: channel.resonantFrequency, source: .board))
        overrides[index] = channel.resonantFrequency
      } else if let measured = record?.f0(channel: index) {
        channels.append(Channel(f0: measured, source: .host))
        overrides[index] = measured
      } else {
        channels.append(Channel(f0: fileF0 ?? channel.resonantFrequency, source: .boardFile))
      }
    }
    // A measured f0 the board file's rules refuse (far out of range) leaves the file's.
    let definition = overrides.isEmpty ? file : (try? file?.calibrated(overrides)) ?? file
    return CalibratedBoard(definition: definition, channels: channels)
  }

  /// The calibrations kept in the board-file folders of `options`; a file that cannot be read
  /// is skipped with a warning on standard error naming it.
  static func store(_ options: BoardOptions) -> CalibrationStore {
    let store = CalibrationStore.load(folders: BoardCatalog.searchPath(options.boardsDirectories))
    for problem in store.problems { printError("warning: \(problem)") }
    return store
  }
}
