/// The schema's rules for a rig file read whole: names, references between entries, ranges.
enum RigRules {
  /// Rates a board's link may run at (as board files: 1200 resets boards).
  static let supportedBauds: Set<Int> = [
    9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 500_000, 921_600, 1_000_000, 2_000_000,
  ]

  static func problems(
    _ rig: RigFile, locations: [String: (line: Int, column: Int)], knownBoard: (String) -> Bool
  ) -> [RigFileError.Problem] {
    var problems: [RigFileError.Problem] = []
    func check(_ condition: Bool, _ path: String, _ message: String) {
      guard !condition else { return }
      let place = locations[path]
      problems.append(.init(path, message, line: place?.line, column: place?.column))
    }
    /// Records `key` as taken by entry `index` in `taken`; when an earlier entry took it, the
    /// problem `clash(earlier)` at `path`.
    func claim(_ key: String, _ index: Int, in taken: inout [String: Int], _ path: String, _ clash: (Int) -> String) {
      if let first = taken[key] { check(false, path, clash(first)) } else { taken[key] = index }
    }
    check(rig.schema == 1, "schema", "version \(rig.schema) is not supported (this hapticctl reads schema 1)")
    check(!rig.boards.isEmpty && rig.boards.count <= RigFile.maximumBoards, "boards", "1–\(RigFile.maximumBoards) boards")
    check(
      !rig.actuators.isEmpty && rig.actuators.count <= RigFile.maximumActuators, "actuators",
      "1–\(RigFile.maximumActuators) actuators")
    var boardNames: [String: Int] = [:]
    var ports: [String: Int] = [:]
    for (index, board) in rig.boards.enumerated() {
      let path = "boards[\(index)]"
      check(isName(board.name), "\(path).name", "1–32 letters, digits, '-' or '_' (e.g. \"left-sleeve\")")
      claim(board.name, index, in: &boardNames, "\(path).name") { "'\(board.name)' names boards[\($0)] already" }
      check(!board.port.isEmpty, "\(path).port", "must not be empty (a serial port, tcp://HOST:PORT or rfc2217://HOST:PORT)")
      claim(board.port, index, in: &ports, "\(path).port") { "\(board.port) is boards[\($0)]'s port already (one board per port)" }
      if let id = board.board { check(knownBoard(id), "\(path).board", "no board '\(id)' (hapticctl boards list shows them)") }
      if let baud = board.baud {
        check(supportedBauds.contains(baud), "\(path).baud", "\(baud) is not a supported rate (1200 resets boards)")
      }
    }
    var actuatorNames: [String: Int] = [:]
    var channels: [String: Int] = [:]
    for (index, actuator) in rig.actuators.enumerated() {
      let path = "actuators[\(index)]"
      check(isName(actuator.name), "\(path).name", "1–32 letters, digits, '-' or '_' (e.g. \"front-3\")")
      claim(actuator.name, index, in: &actuatorNames, "\(path).name") { "'\(actuator.name)' names actuators[\($0)] already" }
      check(
        boardNames[actuator.board] != nil, "\(path).board",
        "no board named '\(actuator.board)' (boards: \(rig.boards.map(\.name).joined(separator: ", ")))")
      check((0...7).contains(actuator.channel), "\(path).channel", "must be a channel 0–7")
      claim("\(actuator.board)#\(actuator.channel)", index, in: &channels, "\(path).channel") {
        "channel \(actuator.channel) of \(actuator.board) is actuators[\($0)] already"
      }
      for group in actuator.groups {
        check(isName(group), "\(path).group", "'\(group)': a group's name is 1–32 letters, digits, '-' or '_' (e.g. \"chest\")")
      }
      if let position = actuator.position {
        check(position.allSatisfy { $0.isFinite && abs($0) <= 1e6 }, "\(path).position", "coordinates within ±1000000")
      }
    }
    // A name addresses an actuator or a group, never both.
    for (index, actuator) in rig.actuators.enumerated() {
      for group in actuator.groups where actuatorNames[group] != nil {
        check(false, "actuators[\(index)].group", "'\(group)' is an actuator's name: a group needs a name of its own")
      }
    }
    return problems
  }

  /// 1–32 ASCII letters, digits, `-` or `_`.
  static func isName(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 32
      && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
  }
}
