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
      if let first = boardNames[board.name] {
        check(false, "\(path).name", "'\(board.name)' names boards[\(first)] already")
      } else {
        boardNames[board.name] = index
      }
      check(!board.port.isEmpty, "\(path).port", "must not be empty (a serial port, tcp://HOST:PORT or rfc2217://HOST:PORT)")
      if let first = ports[board.port] {
        check(false, "\(path).port", "\(board.port) is boards[\(first)]'s port already (one board per port)")
      } else {
        ports[board.port] = index
      }
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
      if let first = actuatorNames[actuator.name] {
        check(false, "\(path).name", "'\(actuator.name)' names actuators[\(first)] already")
      } else {
        actuatorNames[actuator.name] = index
      }
      check(
        boardNames[actuator.board] != nil, "\(path).board",
        "no board named '\(actuator.board)' (boards: \(rig.boards.map(\.name).joined(separator: ", ")))")
      check((0...7).contains(actuator.channel), "\(path).channel", "must be a channel 0–7")
      let key = "\(actuator.board)#\(actuator.channel)"
      if let first = channels[key] {
        check(false, "\(path).channel", "channel \(actuator.channel) of \(actuator.board) is actuators[\(first)] already")
      } else {
        channels[key] = index
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
