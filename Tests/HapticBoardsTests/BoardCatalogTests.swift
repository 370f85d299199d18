import Foundation
import HapticRenderer
import HapticTransport
import Testing

@testable import HapticBoards

/// The built-in catalogue against the files under Boards/, and against the firmware.
@Suite struct BoardCatalogTests {
  static let boardsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Boards").path

  @Test func everyBoardFileIsBuiltInVerbatim() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.boardsFolder).filter { $0.hasSuffix(".json") }.sorted()
    #expect(!files.isEmpty)
    let builtIn = Dictionary(uniqueKeysWithValues: BuiltInBoards.files.map { ($0.name, $0.json) })
    for file in files {
      let text = try String(contentsOfFile: Self.boardsFolder + "/" + file, encoding: .utf8)
      #expect(builtIn[file] == text, "Boards/\(file) differs from its copy in BuiltInBoards.swift (or is missing there)")
    }
    #expect(Set(builtIn.keys) == Set(files), "BuiltInBoards.swift lists a board with no file under Boards/")
  }

  @Test func builtInBoardsMatchTheRendererProfiles() throws {
    for profile in BoardProfile.builtIn {
      let board = try #require(BoardCatalog.builtIn.board(profile.id))
      #expect(board.profile == profile, "\(profile.id): the board file and BoardProfile.\(profile.id) disagree")
      #expect(board.isBuiltIn)
    }
    #expect(BoardCatalog.builtIn.boards.map(\.id) == BoardProfile.builtIn.map(\.id))
  }

  /// The `#define NAME value` lines of a board's board_config.h.
  @Test("LineRates.builtIn (what a library caller's probe tries) names each built-in board's rate")
  func builtInLineRates() {
    let fromFiles = LineRates(boards: BoardCatalog.builtIn.linkRates)
    #expect(LineRates.builtIn.candidates == fromFiles.candidates)
    for (id, baud) in BoardCatalog.builtIn.linkRates {
      #expect(LineRates.builtIn.timingRate(answeredAt: 9_600, boardID: id, acceptsAnyRate: true) == baud, "\(id)")
    }
  }

  static func firmwareMacros(_ board: String) throws -> [String: String] {
    let header = try String(contentsOfFile: Self.boardsFolder + "/\(board)/firmware/src/board_config.h", encoding: .utf8)
    var macros: [String: String] = [:]
    for line in header.split(separator: "\n") where line.hasPrefix("#define ") {
      let parts = line.split(separator: " ", maxSplits: 2)
      if parts.count == 3 { macros[String(parts[1])] = parts[2].trimmingCharacters(in: .whitespaces) }
    }
    return macros
  }

  /// What every firmware announces against its board file: identity, link, frames, level
  /// bits, and each channel's kind, f0, Q and frequency range.
  @Test(arguments: ["uno-drv2605l", "uno-hbridge"])
  func firmwareConfigurationMatchesTheBoardFile(_ id: String) throws {
    let macros = try Self.firmwareMacros(id)
    func number(_ name: String) throws -> Int {
      var text = try #require(macros[name], "\(id) board_config.h lacks \(name)")
      while text.hasSuffix("U") || text.hasSuffix("L") { text.removeLast() }
      return text.hasPrefix("0x") ? try #require(Int(text.dropFirst(2), radix: 16)) : try #require(Int(text))
    }
    let board = try #require(BoardCatalog.builtIn.board(id))
    #expect(macros["BOARD_ID"] == "\"\(board.id)\"")
    #expect(try number("BOARD_AMPLITUDE_BITS") == board.file.levels.bits)
    #expect(try number("BOARD_LINK_BAUD") == board.file.link.baud)
    #expect(try number("BOARD_FRAME_PERIOD_US") == Int((board.file.framePeriodMs * 1000).rounded()))
    #expect(try number("BOARD_CHANNEL_COUNT") == board.file.channels.count)
    for (index, channel) in board.file.channels.enumerated() {
      let model = board.profile.channels[index]
      #expect(try number("BOARD_CH\(index)_KIND") == (channel.actuator == "lra" ? 1 : 2))
      #expect(try number("BOARD_CH\(index)_F0_X10") == Int((channel.f0Hz * 10).rounded()))
      #expect(try number("BOARD_CH\(index)_Q_X100") == Int(((channel.q ?? 0) * 100).rounded()))
      #expect(try number("BOARD_CH\(index)_FREQ_MIN") == Int(model.frequencyControl?.lowerBound ?? 0))
      #expect(try number("BOARD_CH\(index)_FREQ_MAX") == Int(model.frequencyControl?.upperBound ?? 0))
    }
    // Features: braking | overdrive, + frequency control and signed levels where the board
    // file has them, + calibration and ROM effects for the DRV2605L's closed loop.
    var features = 0x03
    if board.profile.channels.contains(where: { $0.frequencyControl != nil }) { features |= 0x04 }
    if board.file.levels.signed { features |= 0x20 }
    if board.file.driver == "drv2605l-rtp" { features |= 0x18 }
    // Every board of the firmware core keeps a serial (protocol v1.1 identity, §6.11).
    features |= 0x40
    #expect(try number("BOARD_FEATURES") == features)
  }

  /// The DRV2605L voltage registers follow the board's voltages (datasheet formulas).
  @Test func drv2605lRegistersFollowTheBoardFile() throws {
    let macros = try Self.firmwareMacros("uno-drv2605l")
    let channel = try #require(BoardCatalog.builtIn.board("uno-drv2605l")?.file.channels.first)
    let rated = (channel.ratedVoltage * (1 - 0.0015 * channel.f0Hz).squareRoot() / 0.02058).rounded()
    let clamp = (channel.overdriveVoltage / (0.02132 * (1 - channel.f0Hz * 0.0008).squareRoot())).rounded()
    #expect(macros["DRV_RATED_VOLTAGE_REG"].flatMap { Int($0.dropFirst(2), radix: 16) } == Int(rated))
    #expect(macros["DRV_OD_CLAMP_REG"].flatMap { Int($0.dropFirst(2), radix: 16) } == Int(clamp))
  }

  @Test func userBoardsLoadAndOverride() throws {
    let folder = NSTemporaryDirectory() + "hapticctl-boards-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let custom = BuiltInBoards.files[0].json.replacingOccurrences(of: "\"sim-lra\"", with: "\"my-lra\"")
      .replacingOccurrences(of: "\"f0Hz\": 170", with: "\"f0Hz\": 150")
      .replacingOccurrences(of: "\"ratedAccelerationG\": 1.5 }", with: "\"ratedAccelerationG\": 1.5, }")  // JSON5 trailing comma
    try custom.write(toFile: folder + "/mine.json", atomically: true, encoding: .utf8)
    try "{".write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
    let path = BoardCatalog.searchPath([], environment: ["HAPTICCTL_BOARDS_PATH": "/nonexistent:" + folder, "HOME": "/nonexistent"])
    #expect(path == ["/nonexistent", folder, "/nonexistent/.config/hapticctl/boards"])
    let catalog = BoardCatalog.load(folders: path)
    let mine = try #require(catalog.board("my-lra"))
    #expect(mine.profile.channels[0].resonantFrequency == 150)
    #expect(!mine.isBuiltIn && mine.path == folder + "/mine.json")
    #expect(catalog.problems.count == 1 && catalog.problems[0].file == folder + "/broken.json")
    #expect(catalog.board("sim-lra") != nil)
  }

  /// Both Uno boards share the Uno's USB ids (the probe's board id tells them apart).
  @Test func usbIdsRecogniseTheUno() {
    #expect(BoardCatalog.builtIn.boards(vid: "2341", pid: "0043").map(\.id) == ["uno-drv2605l", "uno-hbridge"])
    #expect(BoardCatalog.builtIn.boards(vid: "1a86", pid: "7523").map(\.id) == ["uno-drv2605l", "uno-hbridge"])
    #expect(BoardCatalog.builtIn.boards(vid: "0000", pid: "0000").isEmpty)
  }
}
