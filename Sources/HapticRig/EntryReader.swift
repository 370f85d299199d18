import Foundation
import HapticAHAP

/// Walks a JSON file of entries (a rig file, a rig timeline), noting every problem of shape
/// (unknown keys, keys given twice, wrong types, missing fields) with its line and column, and
/// where each entry's values are, for the messages of the rules checked after.
struct EntryReader {
  let lines: SourceLines
  var problems: [RigFileError.Problem] = []
  /// Line and column of the values read, by entry path (`boards[1].port`).
  var locations: [String: (line: Int, column: Int)] = [:]

  init(lines: SourceLines) {
    self.lines = lines
  }

  /// The JSON document in the file at `path` and its lines; a missing or unreadable file, or
  /// text that is not JSON, is an error saying where.
  static func document(at path: String) throws(RigFileError) -> (JSONDocument, SourceLines) {
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw RigFileError(file: path, problems: [.init("", exists ? "cannot read the file" : "no such file")])
    }
    return try document(data, path: path)
  }

  /// The JSON document in `data` and its lines.
  static func document(_ data: Data, path: String?) throws(RigFileError) -> (JSONDocument, SourceLines) {
    let bytes = [UInt8](data)
    let lines = SourceLines(bytes)
    do {
      return (try JSONParser.parse(bytes, maxDepth: 16), lines)
    } catch {
      let (line, column) = lines.location(of: error.offset)
      throw RigFileError(file: path, problems: [.init("", "not valid JSON: \(error.message)", line: line, column: column)])
    }
  }

  mutating func object(_ value: JSONValue, path: String, known: [String]) -> [String: JSONValue]? {
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

  mutating func list<Element>(
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

  mutating func required<Value>(
    _ members: [String: JSONValue], _ key: String, in object: JSONValue, path: String,
    _ read: (inout Self, JSONValue, String) -> Value?
  ) -> Value? {
    guard let value = members[key] else {
      note("\(path).\(key)", "missing", at: object)
      return nil
    }
    return read(&self, value, "\(path).\(key)")
  }

  mutating func string(_ value: JSONValue, path: String, expected: String = "a string") -> String? {
    if case .string(let text) = value.kind { return text }
    note(path, "expected \(expected), found \(value.typeDescription)", at: value)
    return nil
  }

  mutating func number(_ value: JSONValue, path: String) -> Double? {
    if case .number(let number) = value.kind { return number }
    note(path, "expected a number, found \(value.typeDescription)", at: value)
    return nil
  }

  mutating func integer(_ value: JSONValue, path: String) -> Int? {
    if case .number(let number) = value.kind, number == number.rounded(), abs(number) < 1e9 { return Int(number) }
    note(path, "expected an integer, found \(value.brief)", at: value)
    return nil
  }

  mutating func note(_ path: String, _ message: String, at value: JSONValue) {
    let (line, column) = lines.location(of: value.offset)
    problems.append(.init(path, message, line: line, column: column))
  }
}
