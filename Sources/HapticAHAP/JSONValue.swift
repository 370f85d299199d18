/// The parsed form of one JSON document: every value as one node in a flat array, in document
/// order, so parsing allocates a few growing arrays instead of one per object or array.
///
/// Package-internal: the AHAP reader walks it through ``JSONValue`` views.
///
/// Unchecked: its buffers are filled once by the parser before the tape is shared and only read
/// afterwards, and freed once by `deinit`.
package final class JSONTape: @unchecked Sendable {
  /// One value. Containers list their children in ``children``: `first` is where their child
  /// list starts and `count` how many there are. Object children are key nodes; a key's value is
  /// the node right after it.
  package struct Node: Sendable {
    package enum Kind: UInt8, Sendable {
      case null, bool, number, string, array, object
    }
    package var kind: Kind
    /// Byte offset of the value's first character in the source.
    package var offset: Int
    /// bool: 0/1; string: index into `strings`, or -1 for a known string; array/object: start
    /// in `children`.
    package var first: Int
    /// array/object: number of children; string: index in `KnownStrings.all` + 1, or 0.
    package var count: Int
    /// number: the value.
    package var number: Double
  }

  /// Node and child storage live in manually allocated buffers: reading them through a view
  /// involves no reference counting, which is most of the cost of walking a tree of arrays.
  package let nodes: UnsafeMutableBufferPointer<Node>
  package let children: UnsafeMutableBufferPointer<Int>
  package let strings: UnsafeMutableBufferPointer<String>

  package init(nodes: [Node], strings: [String], children: [Int]) {
    self.nodes = .allocate(capacity: nodes.count)
    _ = self.nodes.initialize(from: nodes)
    self.children = .allocate(capacity: children.count)
    _ = self.children.initialize(from: children)
    self.strings = .allocate(capacity: strings.count)
    _ = self.strings.initialize(from: strings)
  }

  /// The text of a string node (known strings live in `KnownStrings.all`).
  func string(_ node: Node) -> String {
    node.first < 0 ? KnownStrings.all[node.count - 1] : strings[node.first]
  }

  deinit {
    nodes.deinitialize()
    nodes.deallocate()
    children.deinitialize()
    children.deallocate()
    strings.deinitialize()
    strings.deallocate()
  }
}

/// A parsed document: owns the tape that every ``JSONValue`` of it points into.
package struct JSONDocument: Sendable {
  private let tape: JSONTape
  private let rootIndex: Int

  init(tape: JSONTape, root: Int) {
    self.tape = tape
    rootIndex = root
  }

  /// Calls `body` with the root value. Views must not outlive the call: they do not retain
  /// the tape (that is what makes walking the tree cheap), the document keeps it alive here.
  package func withRoot<Result>(_ body: (JSONValue) throws -> Result) rethrows -> Result {
    try withExtendedLifetime(tape) {
      try body(JSONValue(tape: tape, index: rootIndex))
    }
  }
}

/// A view of one value in a ``JSONTape``, with the byte offset where it starts so diagnostics
/// can point at it. Valid only inside ``JSONDocument/withRoot(_:)``.
package struct JSONValue: Sendable {
  /// The value's kind and contents.
  package enum Kind: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array(JSONArray)
    case object(JSONObject)
  }

  unowned(unsafe) let tape: JSONTape
  let index: Int

  /// What the value is.
  package var kind: Kind {
    let node = tape.nodes[index]
    switch node.kind {
    case .null: return .null
    case .bool: return .bool(node.first != 0)
    case .number: return .number(node.number)
    case .string: return .string(tape.string(node))
    case .array: return .array(JSONArray(tape: tape, first: node.first, count: node.count))
    case .object: return .object(JSONObject(tape: tape, first: node.first, count: node.count))
    }
  }

  /// True for `null`.
  package var isNull: Bool { tape.nodes[index].kind == .null }

  /// Byte offset of the value's first character in the source.
  package var offset: Int { tape.nodes[index].offset }

  /// A short name of the value's type for messages ("a string", "an array"...).
  package var typeDescription: String {
    switch tape.nodes[index].kind {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The value rendered briefly for messages (strings quoted and cut at 40 characters).
  package var brief: String {
    switch kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return AHAPNumberFormat.string(n)
    case .string(let s):
      let cut = s.count > 40 ? String(s.prefix(40)) + "…" : s
      return "\"\(cut)\""
    case .array(let items): return "an array of \(items.count)"
    case .object(let members): return "an object of \(members.count) keys"
    }
  }
}

/// The elements of a JSON array, in order.
package struct JSONArray: RandomAccessCollection, Sendable {
  unowned(unsafe) let tape: JSONTape
  let first: Int
  package let count: Int

  package var startIndex: Int { 0 }
  package var endIndex: Int { count }
  package subscript(position: Int) -> JSONValue {
    JSONValue(tape: tape, index: tape.children[first + position])
  }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable {
  /// The decoded key.
  package var key: String
  /// Byte offset of the key's opening quote.
  package var keyOffset: Int
  /// The member's value.
  package var value: JSONValue
}

/// The members of a JSON object, in source order (duplicates kept).
package struct JSONObject: RandomAccessCollection, Sendable {
  unowned(unsafe) let tape: JSONTape
  let first: Int
  package let count: Int

  package var startIndex: Int { 0 }
  package var endIndex: Int { count }
  package subscript(position: Int) -> JSONMember {
    let keyIndex = tape.children[first + position]
    let keyNode = tape.nodes[keyIndex]
    return JSONMember(
      key: tape.string(keyNode), keyOffset: keyNode.offset,
      value: JSONValue(tape: tape, index: keyIndex + 1))
  }

  /// The value of member `position`, without building the member.
  package func value(at position: Int) -> JSONValue {
    JSONValue(tape: tape, index: tape.children[first + position] + 1)
  }

  /// The AHAP key of member `position`, if its key is one.
  func ahapKey(at position: Int) -> AHAPKey? {
    AHAPKey(rawValue: tape.nodes[tape.children[first + position]].count - 1)
  }

  /// The key of member `position`, without building the member.
  package func key(at position: Int) -> String {
    tape.string(tape.nodes[tape.children[first + position]])
  }
}

/// Converts byte offsets into 1-based line and column numbers for messages. Columns count
/// characters as an editor shows them (Unicode scalars, not UTF-8 bytes), and a byte-order mark
/// at the start of the file is not one (it used to put every column of the first line 3 off).
package struct SourceLines: Sendable {
  private let bytes: [UInt8]
  private let lineStarts: [Int]

  /// Indexes the line starts of `bytes`.
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
    for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
    lineStarts = starts
  }

  /// The 1-based (line, column) of `offset`.
  package func location(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    let start = lineStarts[low]
    let end = min(max(offset, start), bytes.count)
    // UTF-8 continuation bytes (10xxxxxx) do not start a character.
    let characters = bytes[start..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return (low + 1, characters + 1 + max(offset - end, 0))
  }
}
