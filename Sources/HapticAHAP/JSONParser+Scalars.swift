extension JSONParser {
  /// Exact powers of ten representable in a Double (10^0 ... 10^22).
  private static let exactPowers: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
  /// Returns the text, or for a known AHAP string only its index in ``KnownStrings/all``.
  mutating func parseString() throws(JSONSyntaxError) -> (text: String?, known: Int?) {
    let start = index
    index += 1
    let contentStart = index
    // Fast path: no escapes.
    var nonASCII: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
        index += 1
        if nonASCII & 0x80 == 0 {
          if let known = KnownStrings.lookup(slice) { return (nil, known) }
          return (String(decoding: slice, as: UTF8.self), nil)
        }
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw JSONSyntaxError(offset: start, message: "the string is not valid UTF-8")
        }
        return (text, nil)
      }
      nonASCII |= byte
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw JSONSyntaxError(offset: index, message: "control character \(describe(byte)) inside a string")
      }
      index += 1
    }
    var buffer = Array(bytes[contentStart..<index])
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        // Keys written with escapes (e.g. "\u0054ime") are still the keys they spell.
        if let known = buffer.withUnsafeBufferPointer({ KnownStrings.lookup($0) }) {
          return (nil, known)
        }
        guard let text = String(validating: buffer, as: UTF8.self) else {
          throw JSONSyntaxError(offset: start, message: "the string is not valid UTF-8")
        }
        return (text, nil)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &buffer)
      case 0..<0x20:
        throw JSONSyntaxError(offset: index, message: "control character \(describe(byte)) inside a string")
      default:
        buffer.append(byte)
        index += 1
      }
    }
    throw JSONSyntaxError(offset: start, message: "unterminated string: the JSON is truncated")
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
    let start = index
    index += 1
    guard index < bytes.count else {
      throw JSONSyntaxError(offset: start, message: "unterminated escape sequence")
    }
    let code = bytes[index]
    index += 1
    switch code {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4(escapeStart: start)
      if (0xD800..<0xDC00).contains(scalar) {
        // A high surrogate must be followed by an escaped low surrogate.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else {
          throw JSONSyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
        }
        index += 2
        let low = try parseHex4(escapeStart: start)
        guard (0xDC00..<0xE000).contains(low) else {
          throw JSONSyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw JSONSyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw JSONSyntaxError(offset: start, message: "invalid \\u escape")
      }
      buffer.append(contentsOf: String(Character(unicode)).utf8)
    default:
      throw JSONSyntaxError(offset: start, message: "invalid escape \\\(Character(Unicode.Scalar(code)))")
    }
  }

  private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
    guard bytes.count - index >= 4 else {
      throw JSONSyntaxError(offset: escapeStart, message: "truncated \\u escape")
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default:
        throw JSONSyntaxError(offset: escapeStart, message: "invalid hex digit in \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  /// Parses a number by the JSON grammar; exact for every input (fast path plus fallback).
  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    var negative = false
    if bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    guard index < bytes.count, isDigit(bytes[index]) else {
      if index < bytes.count && (bytes[index] == UInt8(ascii: "I") || bytes[index] == UInt8(ascii: "N")) {
        throw JSONSyntaxError(offset: start, message: "-Infinity is not a number in JSON; use a finite number")
      }
      throw JSONSyntaxError(offset: start, message: "a number needs a digit after '-'")
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count && isDigit(bytes[index]) {
        throw JSONSyntaxError(offset: start, message: "numbers may not have leading zeros")
      }
    } else {
      while index < bytes.count && isDigit(bytes[index]) {
        accumulate(bytes[index], &mantissa, &significantDigits, &exponent, fraction: false)
        index += 1
      }
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONSyntaxError(offset: start, message: "a number needs a digit after '.'")
      }
      while index < bytes.count && isDigit(bytes[index]) {
        accumulate(bytes[index], &mantissa, &significantDigits, &exponent, fraction: true)
        index += 1
      }
    }
    var explicitExponent = 0
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      var exponentNegative = false
      if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONSyntaxError(offset: start, message: "a number needs a digit in its exponent")
      }
      while index < bytes.count && isDigit(bytes[index]) {
        if explicitExponent < 100_000 {
          explicitExponent = explicitExponent * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        }
        index += 1
      }
      if exponentNegative { explicitExponent = -explicitExponent }
    }
    let totalExponent = exponent + explicitExponent
    if significantDigits <= 15 && abs(totalExponent) <= 22 {
      var value = Double(mantissa)
      let power = Self.exactPowers[abs(totalExponent)]
      value = totalExponent < 0 ? value / power : value * power
      return negative ? -value : value
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONSyntaxError(offset: start, message: "the number \(text) is too large for a double")
    }
    return value
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Adds one digit to the fast-path mantissa, tracking the decimal exponent. Digits beyond
  /// 19 only move the exponent; the count then exceeds 15 and the slow path is used.
  private func accumulate(
    _ byte: UInt8, _ mantissa: inout UInt64, _ digits: inout Int, _ exponent: inout Int,
    fraction: Bool
  ) {
    let digit = UInt64(byte - UInt8(ascii: "0"))
    if digits == 0 && digit == 0 {
      if fraction { exponent -= 1 }
      return
    }
    if digits < 19 {
      mantissa = mantissa * 10 + digit
      if fraction { exponent -= 1 }
    } else if !fraction {
      exponent += 1
    }
    digits += 1
  }
}
