/// A parsed JSON value with the byte offset where it starts, so diagnostics can point at it.
///
/// Package-internal: the AHAP reader walks this tree; nothing outside the package sees JSON.
package struct JSONValue: Sendable {
  /// The value's kind and contents.
  package enum Kind: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
  }

  /// What the value is.
  package var kind: Kind
  /// Byte offset of the value's first character in the source.
  package var offset: Int

  package init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  /// A short name of the value's type for messages ("a string", "an array"...).
  package var typeDescription: String {
    switch kind {
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

/// One `"key": value` member of a JSON object, in source order.
package struct JSONMember: Sendable {
  /// The decoded key.
  package var key: String
  /// Byte offset of the key's opening quote.
  package var keyOffset: Int
  /// The member's value.
  package var value: JSONValue
}

/// Converts byte offsets into 1-based line and column numbers for messages.
package struct SourceLines: Sendable {
  private let lineStarts: [Int]

  /// Indexes the line starts of `bytes`.
  package init(_ bytes: [UInt8]) {
    var starts = [0]
    for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
    lineStarts = starts
  }

  /// The 1-based (line, column) of `offset`; the column counts bytes.
  package func location(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return (low + 1, offset - lineStarts[low] + 1)
  }
}
