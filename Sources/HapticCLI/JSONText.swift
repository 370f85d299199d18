/// A tiny JSON value for the CLI's ordered, streaming-friendly output (keys keep their order,
/// numbers are locale-independent).
indirect enum JSONText {
  case null
  case bool(Bool)
  case int(Int)
  case number(Double)
  /// A number written with a fixed count of decimals (no binary noise such as 0.013000000000000001).
  case fixed(Double, digits: Int)
  case string(String)
  case array([JSONText])
  case object([(String, JSONText)])

  /// Compact JSON text.
  var rendered: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .int(let value): return String(value)
    case .number(let value):
      guard value.isFinite else { return "null" }
      if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
      return value.description
    case .fixed(let value, let digits):
      guard value.isFinite else { return "null" }
      var text = Decimal6.string(value, digits: digits)
      while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
      return text == "-0" ? "0" : text
    case .string(let value): return Self.quoted(value)
    case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
    }
  }

  /// `value` as a JSON string literal.
  static func quoted(_ value: String) -> String {
    var text = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }
}
