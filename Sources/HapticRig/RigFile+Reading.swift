public import Foundation
import HapticAHAP

extension RigFile {
  /// The most boards and actuators a rig file may name.
  public static let maximumBoards = 64
  public static let maximumActuators = 1_024

  /// Reads and checks the rig file at `path`.
  ///
  /// - Parameter knownBoard: whether a board id exists (the built-in and user boards); a
  ///   board entry naming another is an error.
  /// - Throws: ``RigFileError`` with every problem found, each naming its entry and its line.
  public static func load(_ path: String, knownBoard: (String) -> Bool) throws(RigFileError) -> RigFile {
    let (document, lines) = try EntryReader.document(at: path)
    return try read(document, lines: lines, path: path, knownBoard: knownBoard)
  }

  /// Parses and checks a rig file's text (JSON; trailing commas are accepted).
  public static func parse(_ data: Data, path: String? = nil, knownBoard: (String) -> Bool) throws(RigFileError) -> RigFile {
    let (document, lines) = try EntryReader.document(data, path: path)
    return try read(document, lines: lines, path: path, knownBoard: knownBoard)
  }

  private static func read(
    _ document: JSONDocument, lines: SourceLines, path: String?, knownBoard: (String) -> Bool
  ) throws(RigFileError) -> RigFile {
    var reader = EntryReader(lines: lines)
    let rig = document.withRoot { reader.rig($0) }
    var problems = reader.problems
    if problems.isEmpty, var rig {
      rig.path = path
      problems += RigRules.problems(rig, locations: reader.locations, knownBoard: knownBoard)
      if problems.isEmpty { return rig }
    }
    throw RigFileError(file: path, problems: problems)
  }
}

/// A rig file's JSON walked into a ``RigFile``.
extension EntryReader {
  mutating func rig(_ root: JSONValue) -> RigFile? {
    guard let members = object(root, path: "", known: ["schema", "name", "boards", "actuators"]) else { return nil }
    let schema = members["schema"].flatMap { integer($0, path: "schema") }
    if members["schema"] == nil { note("schema", "missing (this hapticctl reads schema 1)", at: root) }
    let name = members["name"].flatMap { string($0, path: "name") }
    let boards = list(members["boards"], path: "boards", in: root) { reader, value, path in reader.board(value, path: path) }
    let actuators = list(members["actuators"], path: "actuators", in: root) { reader, value, path in
      reader.actuator(value, path: path)
    }
    guard let schema, let boards, let actuators else { return nil }
    return RigFile(schema: schema, name: name, boards: boards, actuators: actuators)
  }

  private mutating func board(_ value: JSONValue, path: String) -> RigFile.Board? {
    guard let members = object(value, path: path, known: ["name", "port", "board", "baud"]) else { return nil }
    let name = required(members, "name", in: value, path: path) { $0.string($1, path: $2) }
    let port = required(members, "port", in: value, path: path) { $0.string($1, path: $2) }
    let board = members["board"].flatMap { string($0, path: "\(path).board") }
    let baud = members["baud"].flatMap { integer($0, path: "\(path).baud") }
    guard let name, let port else { return nil }
    return RigFile.Board(name: name, port: port, board: board, baud: baud)
  }

  private mutating func actuator(_ value: JSONValue, path: String) -> RigFile.Actuator? {
    guard let members = object(value, path: path, known: ["name", "board", "channel", "group", "position"]) else { return nil }
    let name = required(members, "name", in: value, path: path) { $0.string($1, path: $2) }
    let board = required(members, "board", in: value, path: path) { $0.string($1, path: $2) }
    let channel = required(members, "channel", in: value, path: path) { $0.integer($1, path: $2) }
    var groups: [String] = []
    if let group = members["group"] {
      if case .array(let items) = group.kind {
        for (index, item) in items.enumerated() { if let text = string(item, path: "\(path).group[\(index)]") { groups.append(text) } }
      } else if let text = string(group, path: "\(path).group", expected: "a group name or a list of them") {
        groups = [text]
      }
    }
    var position: [Double]?
    if let value = members["position"] {
      if case .array(let items) = value.kind, (2...3).contains(items.count),
        items.allSatisfy({ if case .number = $0.kind { true } else { false } })
      {
        position = items.map { if case .number(let n) = $0.kind { n } else { 0 } }
      } else {
        note("\(path).position", "expected 2 or 3 numbers, e.g. [0.1, 0.25] or [0.1, 0.25, 0]", at: value)
      }
    }
    guard let name, let board, let channel else { return nil }
    return RigFile.Actuator(name: name, board: board, channel: channel, groups: groups, position: position)
  }
}
