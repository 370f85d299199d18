import ArgumentParser
import HapticBoards
import HapticEngine
import HapticRig
import HapticTransport

/// `FILE [--boards-dir DIR]…`: a rig file, read and checked against the known boards, and the
/// way to open its boards (each at its entry's rate, or its board's, rendered for its board file
/// with the f0 it was calibrated to, as `send --port` does).
struct RigOptions: ParsableArguments {
  @Argument(help: "The rig file (rig.json: boards, their ports, the actuators on them; docs/rigs.md).", completion: .file(extensions: ["json"]))
  var rig: String

  @OptionGroup var boardOptions: BoardOptions

  /// The rig file, checked (every problem named with its entry and line; exit 1).
  func load() throws -> RigFile { try Self.load(rig, boards: boardOptions) }

  /// The rig file at `path`, checked against the boards `boards` knows.
  static func load(_ path: String, boards: BoardOptions) throws -> RigFile {
    let catalog = boards.catalog()
    do {
      return try RigFile.load(path, knownBoard: { catalog.board($0) != nil })
    } catch {
      throw CLIError(error.description)
    }
  }

  /// Opens every board of `file` and starts its engine (in parallel); errors name the board.
  static func open(
    _ file: RigFile, boards: BoardOptions, configuration: HapticEngine.Configuration = .init()
  ) throws -> HapticRig.Rig {
    let catalog = boards.catalog()
    let store = CalibratedBoard.store(boards)
    // One thread reads every board and runs every engine's passes (HapticTransport's Reactor).
    var shared = configuration
    shared.reactor = configuration.reactor ?? Reactor(name: "rig")
    let configuration = shared
    do {
      return try HapticRig.Rig.open(file) { entry throws(HapticEngineError) in
        try HapticEngine.serial(
          port: entry.port, rates: LineRates.chosen(baud: entry.baud, catalog: catalog, preferring: entry.board),
          configuration: configuration, clockInterval: HapticRig.Rig.clockInterval,
          clockSettledInterval: HapticRig.Rig.clockSettledInterval,
          profileFor: { capabilities, identity in
            CalibratedBoard.resolve(capabilities, identity: identity, catalog: catalog, store: store).definition?.profile
          })
      }
    } catch {
      throw CLIError("rig \(file.path ?? ""): \(error)")
    }
  }
}

/// `hapticctl rig validate|probe|measure`.
struct RigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rig", abstract: "Check, probe and measure a rig: many boards on one timeline (docs/rigs.md).",
    subcommands: [RigValidate.self, RigProbe.self, RigMeasure.self])
}

/// `hapticctl rig validate FILE`: the file's problems, or what it holds.
struct RigValidate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", abstract: "Check a rig file without opening its boards.",
    discussion: "Prints each problem with its entry and line (exit 1), or the boards, actuators and groups.")

  @OptionGroup var options: RigOptions

  func run() throws {
    let file = try options.load()
    print("\(file.path ?? options.rig): rig \(file.name ?? "(unnamed)"): \(file.boards.count) boards, \(file.actuators.count) actuators, \(file.groups.count) groups")
    for board in file.boards {
      let actuators = file.actuators.filter { $0.board == board.name }
      let list = actuators.map { "\($0.name)=\($0.channel)" }.joined(separator: ", ")
      print("  board \(board.name): \(board.port)\(board.board.map { " (\($0))" } ?? ""): \(list.isEmpty ? "no actuators" : list)")
    }
    for group in file.groups {
      print("  group \(group): \(file.actuators.filter { $0.groups.contains(group) }.map(\.name).joined(separator: ", "))")
    }
  }
}
