/// Builds pretty-printed JSON text with a fixed layout (`"Key" : value` as Apple's AHAP files,
/// or `"key": value` as Meta's `.haptic` files; one member per line), appending UTF-8 bytes to
/// one buffer.
package struct JSONTextBuilder {
  private var bytes: [UInt8] = []
  private let indentWidth: Int
  private var depth = 0
  /// Whether the current container already has an element (so the next needs a comma).
  private var hasElement: [Bool] = []
  /// True right after `key(_:)`, so the value goes on the same line.
  private var afterKey = false
  /// What goes between a key and its value.
  private let separator: [UInt8]

  package init(indentWidth: Int, spaceBeforeColon: Bool = true) {
    self.indentWidth = indentWidth
    separator = spaceBeforeColon ? [0x20, UInt8(ascii: ":"), 0x20] : [UInt8(ascii: ":"), 0x20]
    bytes.reserveCapacity(16_384)
  }

  private mutating func newline() {
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(0x20, count: depth * indentWidth))
  }

  private mutating func beginValue() {
    if afterKey {
      afterKey = false
      return
    }
    if let last = hasElement.last {
      if last { bytes.append(UInt8(ascii: ",")) }
      hasElement[hasElement.count - 1] = true
      newline()
    }
  }

  package mutating func openObject() { open(UInt8(ascii: "{")) }
  package mutating func openArray() { open(UInt8(ascii: "[")) }
  package mutating func closeObject() { close(UInt8(ascii: "}")) }
  package mutating func closeArray() { close(UInt8(ascii: "]")) }

  private mutating func open(_ bracket: UInt8) {
    beginValue()
    bytes.append(bracket)
    hasElement.append(false)
    depth += 1
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if hasElement.removeLast() { newline() }
    bytes.append(bracket)
  }

  package mutating func key(_ name: String) {
    beginValue()
    appendQuoted(name)
    bytes.append(contentsOf: separator)
    afterKey = true
  }

  package mutating func string(_ value: String) {
    beginValue()
    appendQuoted(value)
  }

  /// Writes a number; a non-finite value (which no reader produced) is written as `null`,
  /// which readers treat as absent, so the output stays valid JSON.
  package mutating func number(_ value: Double) {
    beginValue()
    if value.isFinite {
      bytes.append(contentsOf: AHAPNumberFormat.string(value).utf8)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }

  package mutating func bool(_ value: Bool) {
    beginValue()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  private mutating func appendQuoted(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x00..<0x20, 0x7F:
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        bytes.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
        ])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The finished text as UTF-8 bytes, ending with a newline.
  package mutating func finish() -> [UInt8] {
    bytes.append(0x0A)
    return bytes
  }
}
