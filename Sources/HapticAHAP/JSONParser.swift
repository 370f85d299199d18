/// A syntax error found while parsing JSON: where, and what was wrong.
package struct JSONSyntaxError: Error, Sendable {
  /// Byte offset of the offending character.
  package var offset: Int
  /// What was wrong, in words.
  package var message: String
}

/// A JSON parser with the leniency real AHAP files need and the strictness safety needs.
///
/// Accepts RFC 8259 JSON plus trailing commas in arrays and objects (Apple's own sample files
/// have them) and a leading UTF-8 byte-order mark. Rejects everything else a lenient parser
/// might let through: `NaN`/`Infinity`, numbers that overflow to infinity, comments, single
/// quotes, invalid UTF-8, control characters in strings, and nesting deeper than `maxDepth`
/// (checked before recursing, so hostile input cannot exhaust the stack).
///
/// Foundation's `JSONDecoder` (JSON5 mode) would accept trailing commas too, but on Linux it
/// reports syntax errors without a position, accepts `NaN`, and parses the AHAP corpus about
/// five times slower than the 10 ms budget; docs/architecture.md records the measurement.
package struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  private let maxDepth: Int
  private var nodes: [JSONTape.Node] = []
  private var strings: [String] = []
  private var children: [Int] = []
  /// Child indices of the containers being parsed, innermost last.
  private var pending: [Int] = []

  /// Parses one JSON document from `input`.
  ///
  /// - Parameters:
  ///   - input: the raw bytes of the document.
  ///   - maxDepth: the deepest nesting of arrays and objects accepted.
  /// - Returns: the document; walk it inside ``JSONDocument/withRoot(_:)``.
  /// - Throws: ``JSONSyntaxError`` at the first problem.
  package static func parse(_ input: [UInt8], maxDepth: Int = 512) throws(JSONSyntaxError)
    -> JSONDocument
  {
    let result: Result<JSONDocument, JSONSyntaxError> = input.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
      do throws(JSONSyntaxError) {
        let root = try parser.parseDocument()
        let tape = JSONTape(nodes: parser.nodes, strings: parser.strings, children: parser.children)
        return .success(JSONDocument(tape: tape, root: root))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    // About one node per 10 bytes of AHAP text.
    nodes.reserveCapacity(bytes.count / 10 + 16)
    children.reserveCapacity(bytes.count / 12 + 16)
  }

  private mutating func append(_ kind: JSONTape.Node.Kind, at offset: Int, first: Int = 0, number: Double = 0) -> Int {
    nodes.append(JSONTape.Node(kind: kind, offset: offset, first: first, count: 0, number: number))
    return nodes.count - 1
  }

  /// Appends a string node; `count` carries the known-string index + 1 (0 when not known).
  /// Appends a string node. Known strings are not stored: the node refers to
  /// `KnownStrings.all` through `count` (index + 1); others go to `strings` (`first`).
  private mutating func appendString(_ string: (text: String?, known: Int?), at offset: Int) -> Int {
    if let known = string.known {
      let node = append(.string, at: offset, first: -1)
      nodes[node].count = known + 1
      return node
    }
    strings.append(string.text ?? "")
    return append(.string, at: offset, first: strings.count - 1)
  }

  private mutating func parseDocument() throws(JSONSyntaxError) -> Int {
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    skipWhitespace()
    guard index < bytes.count else {
      throw JSONSyntaxError(offset: index, message: "the file is empty (no JSON value)")
    }
    let value = try parseValue(depth: 0)
    skipWhitespace()
    if index < bytes.count {
      throw JSONSyntaxError(
        offset: index, message: "unexpected \(found(index)) after the end of the JSON value")
    }
    return value
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// Parses one value and returns its node index.
  private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> Int {
    guard index < bytes.count else {
      throw JSONSyntaxError(offset: index, message: "unexpected end of file: the JSON is truncated")
    }
    let start = index
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return appendString(try parseString(), at: start)
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return append(.bool, at: start, first: 1)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return append(.bool, at: start, first: 0)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return append(.null, at: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return append(.number, at: start, number: try parseNumber())
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      throw JSONSyntaxError(
        offset: start, message: "NaN and Infinity are not numbers in JSON; use a finite number")
    default:
      throw JSONSyntaxError(offset: start, message: "expected a JSON value, found \(found(start))")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let start = index
    let count = literal.utf8CodeUnitCount
    let matches = literal.withUTF8Buffer { expected in
      guard bytes.count - index >= count else { return false }
      for i in 0..<count where bytes[index + i] != expected[i] { return false }
      return true
    }
    guard matches else {
      throw JSONSyntaxError(offset: start, message: "expected '\(literal)'")
    }
    index += count
  }

  private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> Int {
    let start = index
    guard depth <= maxDepth else {
      throw JSONSyntaxError(offset: start, message: "nesting deeper than \(maxDepth) levels")
    }
    index += 1
    let node = append(.array, at: start)
    let mark = pending.count
    skipWhitespace()
    while true {
      guard index < bytes.count else {
        throw JSONSyntaxError(offset: index, message: "unexpected end of file inside an array started at byte \(start)")
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        close(node, childrenFrom: mark)
        return node
      }
      pending.append(try parseValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { continue }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
        // A trailing comma before `]` is accepted (Apple's samples have them).
        if index < bytes.count && bytes[index] == UInt8(ascii: ",") {
          throw JSONSyntaxError(offset: index, message: "two commas in a row in an array")
        }
      case UInt8(ascii: "]"):
        continue
      default:
        throw JSONSyntaxError(offset: index, message: "expected ',' or ']' in an array, found \(found(index))")
      }
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> Int {
    let start = index
    guard depth <= maxDepth else {
      throw JSONSyntaxError(offset: start, message: "nesting deeper than \(maxDepth) levels")
    }
    index += 1
    let node = append(.object, at: start)
    let mark = pending.count
    skipWhitespace()
    while true {
      guard index < bytes.count else {
        throw JSONSyntaxError(offset: index, message: "unexpected end of file inside an object started at byte \(start)")
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        close(node, childrenFrom: mark)
        return node
      }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw JSONSyntaxError(offset: index, message: "expected a quoted key or '}' in an object, found \(found(index))")
      }
      let keyOffset = index
      let key = try parseString()
      pending.append(appendString(key, at: keyOffset))
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw JSONSyntaxError(offset: index, message: "expected ':' after the key \"\(key.text ?? key.known.map { KnownStrings.all[$0] } ?? "")\"")
      }
      index += 1
      skipWhitespace()
      // The value is the node right after its key.
      _ = try parseValue(depth: depth)
      skipWhitespace()
      guard index < bytes.count else { continue }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: ",") {
          throw JSONSyntaxError(offset: index, message: "two commas in a row in an object")
        }
      case UInt8(ascii: "}"):
        continue
      default:
        throw JSONSyntaxError(offset: index, message: "expected ',' or '}' in an object, found \(found(index))")
      }
    }
  }

  /// Moves the children collected since `mark` into the container `node`'s child list.
  private mutating func close(_ node: Int, childrenFrom mark: Int) {
    nodes[node].first = children.count
    nodes[node].count = pending.count - mark
    children.append(contentsOf: pending[mark...])
    pending.removeSubrange(mark...)
  }

  /// The byte at `index` for a message; a `//` or `/*` there is named as the comment it is:
  /// JSON has none (a file written for a JSON5 reader fails with this hint, not a bare '/').
  func found(_ index: Int) -> String {
    let byte = bytes[index]
    if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
      return "'\(Character(Unicode.Scalar(byte)))\(Character(Unicode.Scalar(bytes[index + 1])))', a comment (JSON has no comments: remove them)"
    }
    return describe(byte)
  }

  func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}
