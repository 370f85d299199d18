import ArgumentParser
import Foundation
import HapticBoards
import HapticRenderer

/// `--boards-dir DIR` (repeatable): where user board files are looked up, besides
/// `$HAPTICCTL_BOARDS_PATH` and `~/.config/hapticctl/boards`.
struct BoardOptions: ParsableArguments {
  @Option(name: .customLong("boards-dir"), help: "A folder of user board files (repeatable).")
  var boardsDirectories: [String] = []

  /// The built-in boards plus the user boards found.
  func catalog() -> BoardCatalog {
    BoardCatalog.load(folders: BoardCatalog.searchPath(boardsDirectories), required: Set(boardsDirectories))
  }

  /// Board `id`, or a usage error naming the known boards (and user files that failed). `id`
  /// may also name one calibrated physical board by its identity (`serial-1A2B3C4D`, as
  /// `boards show` lists it): its board type with the f0 measured on it.
  func board(_ id: String) throws -> BoardDefinition {
    let catalog = catalog()
    if let board = catalog.board(id) { return board }
    if let kept = CalibratedBoard.store(self).calibration(identity: id), let type = catalog.board(kept.board) {
      do {
        return try type.calibrated(Dictionary(kept.channels.map { ($0.channel, $0.f0Hz) }, uniquingKeysWith: { $1 }))
      } catch {
        throw ValidationError("the calibration of board \(id) does not fit its board \(kept.board): \(error)")
      }
    }
    var message = "unknown board '\(id)' (known boards: \(catalog.boards.map(\.id).joined(separator: ", ")))"
    for problem in catalog.problems { message += "\n  skipped \(problem)" }
    throw ValidationError(message)
  }
}

/// `hapticctl boards list|show|validate`.
struct BoardsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "boards", abstract: "List, show and validate board files.",
    subcommands: [BoardsList.self, BoardsShow.self, BoardsValidate.self], defaultSubcommand: BoardsList.self)
}

struct BoardsList: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the known boards (built-in and user boards).")

  @Flag(help: "Print one JSON object per board.")
  var json = false

  @OptionGroup var boardOptions: BoardOptions

  func run() throws {
    let catalog = boardOptions.catalog()
    for board in catalog.boards {
      if json {
        print(BoardReport.summary(board).rendered)
      } else {
        let origin = board.path ?? "built-in"
        print("\(board.id.padding(toLength: 16, withPad: " ", startingAt: 0)) \(board.file.name)  [\(board.file.driver), \(origin)]")
      }
    }
    for problem in catalog.problems { printError("warning: skipped \(problem)") }
  }
}

struct BoardsShow: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one board in full.")

  @Argument(help: "Board id.")
  var id: String

  @Flag(help: "Print JSON.")
  var json = false

  @OptionGroup var boardOptions: BoardOptions

  func run() throws {
    let board = try boardOptions.board(id)
    // The physical boards of this type calibrated on this host (calibrate --write).
    let kept = CalibratedBoard.store(boardOptions).calibrations(board: board.id)
    if json {
      print(BoardReport.detail(board, calibrations: kept).rendered)
    } else {
      print(BoardReport.text(board, calibrations: kept))
    }
  }
}

struct BoardsValidate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", abstract: "Check board files; errors name the field (channels[0].q).")

  @Argument(help: "Board files.", completion: .file(extensions: ["json"]))
  var files: [String]

  func validate() throws {
    guard !files.isEmpty else { throw ValidationError("give at least one board file") }
  }

  func run() throws {
    var failed = false
    for file in files {
      do {
        let board = try BoardDefinition.load(file)
        print("\(file): ok (\(board.id), \(board.file.driver), \(board.file.channels.count) channel\(board.file.channels.count == 1 ? "" : "s"))")
      } catch {
        printError("error: \(error)")
        failed = true
      }
    }
    if failed { throw ExitCode(1) }
  }
}

/// How boards print.
enum BoardReport {
  static func summary(_ board: BoardDefinition) -> JSONText {
    .object([
      ("id", .string(board.id)), ("name", .string(board.file.name)), ("vendor", .string(board.file.vendor)),
      ("driver", .string(board.file.driver)), ("built_in", .bool(board.isBuiltIn)),
      ("file", board.path.map { .string($0) } ?? .null),
      ("usb", .array(board.file.usb.map { .string("\($0.vid):\($0.pid)") })),
    ])
  }

  static func detail(_ board: BoardDefinition, calibrations: [BoardCalibration] = []) -> JSONText {
    let profile = board.profile
    var members: [(String, JSONText)] = [
      ("id", .string(board.id)), ("name", .string(board.file.name)), ("vendor", .string(board.file.vendor)),
      ("mcu", board.file.mcu.map { .string($0) } ?? .null), ("driver", .string(board.file.driver)),
      ("shaping", .string(profile.shaping.rawValue)), ("baud", .int(board.file.link.baud)),
      ("frame_period_ms", .fixed(board.file.framePeriodMs, digits: 3)),
      ("level_bits", .int(board.file.levels.bits)), ("signed_levels", .bool(board.file.levels.signed)),
      ("frequency_control_hz", profile.frequencyControl.map { .array([.fixed($0.lowerBound, digits: 1), .fixed($0.upperBound, digits: 1)]) } ?? .null),
    ]
    members.append((
      "channels",
      .array(zip(board.file.channels, profile.channels).map { channel, model in
        .object([
          ("actuator", .string(channel.actuator)), ("f0_hz", .fixed(channel.f0Hz, digits: 1)),
          ("q", channel.q.map { .fixed($0, digits: 2) } ?? .null),
          ("rated_voltage", .fixed(channel.ratedVoltage, digits: 2)),
          ("overdrive_voltage", .fixed(channel.overdriveVoltage, digits: 2)),
          ("rated_acceleration_g", .fixed(channel.ratedAccelerationG, digits: 2)),
          ("frequency_control_hz", model.frequencyControl.map { .array([.fixed($0.lowerBound, digits: 1), .fixed($0.upperBound, digits: 1)]) } ?? .null),
        ])
      })))
    members.append(("usb", .array(board.file.usb.map { .string("\($0.vid):\($0.pid)") })))
    members.append(("firmware", board.file.firmware.map { .string($0.source) } ?? .null))
    members.append(("flash_tool", board.file.flash.map { .string($0.tool) } ?? .null))
    members.append(("file", board.path.map { .string($0) } ?? .null))
    members.append((
      "calibrated_boards",
      .array(calibrations.map { record in
        .object([
          ("identity", .string(record.identity)), ("calibrated_at", .string(record.calibratedAt)),
          ("channels", .array(record.channels.map { .object([("channel", .int($0.channel)), ("f0_hz", .fixed($0.f0Hz, digits: 1))]) })),
        ])
      })))
    return .object(members)
  }

  static func text(_ board: BoardDefinition, calibrations: [BoardCalibration] = []) -> String {
    let file = board.file
    var lines = ["\(file.id): \(file.name)", "  vendor \(file.vendor)\(file.mcu.map { ", MCU \($0)" } ?? "")"]
    lines.append("  driver \(file.driver) (\(board.profile.shaping == .host ? "host" : "driver") shapes overdrive/braking)")
    lines.append(
      "  link \(file.link.baud) baud, frames \(Decimal6.string(file.framePeriodMs, digits: 3)) ms, \(file.levels.bits)-bit \(file.levels.signed ? "signed" : "unsigned") levels")
    for (index, (channel, model)) in zip(file.channels, board.profile.channels).enumerated() {
      var text = "  channel \(index): \(channel.actuator.uppercased()) \(Decimal6.string(channel.f0Hz, digits: 1)) Hz"
      if let q = channel.q { text += ", Q \(Decimal6.string(q, digits: 1))" }
      text += ", rated \(Decimal6.string(channel.ratedVoltage, digits: 2)) V, overdrive \(Decimal6.string(channel.overdriveVoltage, digits: 2)) V, \(Decimal6.string(channel.ratedAccelerationG, digits: 2)) G"
      if let band = model.frequencyControl { text += ", frequency control \(Int(band.lowerBound))–\(Int(band.upperBound)) Hz" }
      lines.append(text)
    }
    if !file.usb.isEmpty { lines.append("  USB " + file.usb.map { "\($0.vid):\($0.pid)" }.joined(separator: ", ")) }
    if let firmware = file.firmware { lines.append("  firmware \(firmware.source) (\(firmware.build.joined(separator: " ")) → \(firmware.artifact))") }
    if let flash = file.flash { lines.append("  flash with \(flash.tool)") }
    lines.append("  " + (board.path.map { "from \($0)" } ?? "built in"))
    for record in calibrations {
      let channels = record.channels.map { "channel \($0.channel) f0 \(Decimal6.string($0.f0Hz, digits: 1)) Hz" }.joined(separator: ", ")
      lines.append("  calibrated board \(record.identity) (kept on this host, \(record.calibratedAt)): \(channels)")
    }
    return lines.joined(separator: "\n")
  }
}
