/// Builds pretty-printed JSON text with a fixed layout (`"Key" : value`, one member per line).
struct JSONTextBuilder {
  private var text = ""
  private let indentWidth: Int
  private var depth = 0
  /// Whether the current container already has an element (so the next needs a comma).
  private var hasElement: [Bool] = []
  /// True right after `key(_:)`, so the value goes on the same line.
  private var afterKey = false

  init(indentWidth: Int) {
    self.indentWidth = indentWidth
    text.reserveCapacity(4096)
  }

  private mutating func beginValue() {
    if afterKey {
      afterKey = false
      return
    }
    if let last = hasElement.last {
      text += last ? ",\n" : "\n"
      hasElement[hasElement.count - 1] = true
      text += String(repeating: " ", count: depth * indentWidth)
    }
  }

  mutating func openObject() { open("{") }
  mutating func openArray() { open("[") }
  mutating func closeObject() { close("}") }
  mutating func closeArray() { close("]") }

  private mutating func open(_ bracket: String) {
    beginValue()
    text += bracket
    hasElement.append(false)
    depth += 1
  }

  private mutating func close(_ bracket: String) {
    depth -= 1
    let hadElements = hasElement.removeLast()
    if hadElements {
      text += "\n" + String(repeating: " ", count: depth * indentWidth)
    }
    text += bracket
  }

  mutating func key(_ name: String) {
    beginValue()
    appendQuoted(name)
    text += " : "
    afterKey = true
  }

  mutating func string(_ value: String) {
    beginValue()
    appendQuoted(value)
  }

  /// Writes a number; a non-finite value (which no reader produced) is written as `null`,
  /// which readers treat as absent, so the output stays valid JSON.
  mutating func number(_ value: Double) {
    beginValue()
    text += value.isFinite ? AHAPNumberFormat.string(value) : "null"
  }

  mutating func bool(_ value: Bool) {
    beginValue()
    text += value ? "true" : "false"
  }

  private mutating func appendQuoted(_ value: String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}":
        let hex = String(scalar.value, radix: 16, uppercase: true)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }

  mutating func finish() -> String {
    text + "\n"
  }
}
