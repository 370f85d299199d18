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
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw RigFileError(file: path, problems: [.init("", exists ? "cannot read the file" : "no such file")])
    }
    return try parse(data, path: path, knownBoard: knownBoard)
  }

  /// Parses and checks a rig file's text (JSON; trailing commas are accepted).
  public static func parse(_ data: Data, path: String? = nil, knownBoard: (String) -> Bool) throws(RigFileError) -> RigFile {
    let bytes = [UInt8](data)
    let lines = SourceLines(bytes)
    let document: JSONDocument
    do {
      document = try JSONParser.parse(bytes, maxDepth: 16)
    } catch {
      let (line, column) = lines.location(of: error.offset)
      throw RigFileError(file: path, problems: [.init("", "not valid JSON: \(error.message)", line: line, column: column)])
    }
    var reader = RigFileReader(lines: lines)
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

/// Walks a rig file's JSON into a ``RigFile``, noting every problem of shape (unknown keys,
/// wrong types, missing fields) with its line, and where each entry's fields are for the
/// rules' messages.
struct RigFileReader {
  let lines: SourceLines
  var problems: [RigFileError.Problem] = []
  /// Byte offsets of the values read, by entry path (`boards[1].port`).
  var locations: [String: (line: Int, column: Int)] = [:]

  init(lines: SourceLines) {
    self.lines = lines
  }

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

  // MARK: Shapes

  private mutating func object(_ value: JSONValue, path: String, known: [String]) -> [String: JSONValue]? {
    guard case .object(let object) = value.kind else {
      note(path, "expected an object, found \(value.typeDescription)", at: value)
      return nil
    }
    var members: [String: JSONValue] = [:]
    for member in object {
      let keyPath = path.isEmpty ? member.key : "\(path).\(member.key)"
      let (line, column) = lines.location(of: member.keyOffset)
      if !known.contains(member.key) {
        problems.append(.init(keyPath, "unknown field (known: \(known.joined(separator: ", ")))", line: line, column: column))
      } else if members[member.key] != nil {
        problems.append(.init(keyPath, "given twice", line: line, column: column))
      }
      members[member.key] = member.value
      locations[keyPath] = lines.location(of: member.value.offset)
    }
    locations[path] = lines.location(of: value.offset)
    return members
  }

  private mutating func list<Element>(
    _ value: JSONValue?, path: String, in parent: JSONValue, _ element: (inout Self, JSONValue, String) -> Element?
  ) -> [Element]? {
    guard let value else {
      note(path, "missing", at: parent)
      return nil
    }
    guard case .array(let items) = value.kind else {
      note(path, "expected a list, found \(value.typeDescription)", at: value)
      return nil
    }
    var elements: [Element] = []
    var complete = true
    for (index, item) in items.enumerated() {
      if let next = element(&self, item, "\(path)[\(index)]") { elements.append(next) } else { complete = false }
    }
    return complete ? elements : nil
  }

  private mutating func required<Value>(
    _ members: [String: JSONValue], _ key: String, in object: JSONValue, path: String,
    _ read: (inout Self, JSONValue, String) -> Value?
  ) -> Value? {
    guard let value = members[key] else {
      note("\(path).\(key)", "missing", at: object)
      return nil
    }
    return read(&self, value, "\(path).\(key)")
  }

  private mutating func string(_ value: JSONValue, path: String, expected: String = "a string") -> String? {
    if case .string(let text) = value.kind { return text }
    note(path, "expected \(expected), found \(value.typeDescription)", at: value)
    return nil
  }

  private mutating func integer(_ value: JSONValue, path: String) -> Int? {
    if case .number(let number) = value.kind, number == number.rounded(), abs(number) < 1e9 { return Int(number) }
    note(path, "expected an integer, found \(value.brief)", at: value)
    return nil
  }

  private mutating func note(_ path: String, _ message: String, at value: JSONValue) {
    let (line, column) = lines.location(of: value.offset)
    problems.append(.init(path, message, line: line, column: column))
  }
}
