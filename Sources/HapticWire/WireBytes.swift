/// Little-endian integer and string writing for message payloads.
public struct WireWriter: Sendable {
  /// The bytes written so far (writable, so encoders can append in place).
  public var bytes: [UInt8] = []

  /// Creates an empty writer.
  public init() {
    bytes.reserveCapacity(64)
  }

  /// Appends one byte.
  public mutating func u8(_ value: UInt8) { bytes.append(value) }
  /// Appends raw bytes.
  public mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
  /// Appends a signed byte.
  public mutating func i8(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
  /// Appends 16 bits, little-endian.
  public mutating func u16(_ value: UInt16) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
  }
  /// Appends a signed 16-bit value, little-endian.
  public mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }
  /// Appends 32 bits, little-endian.
  public mutating func u32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
  }
  /// Appends 64 bits, little-endian.
  public mutating func u64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
  }
  /// Appends a string as a length byte and at most 255 UTF-8 bytes.
  public mutating func string(_ value: String) {
    let utf8 = Array(value.utf8.prefix(255))
    bytes.append(UInt8(utf8.count))
    bytes.append(contentsOf: utf8)
  }
}

/// Little-endian reading of message payloads; every read checks the remaining length.
public struct WireReader: Sendable {
  private let bytes: [UInt8]
  private var index: Int

  /// Reads `bytes` from the start.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    index = 0
  }

  /// Bytes not read yet.
  public var remaining: Int { bytes.count - index }

  private func need(_ count: Int) throws(WireError) {
    guard remaining >= count else {
      throw WireError(.truncatedPayload, "payload ends \(count - remaining) byte(s) early")
    }
  }

  /// Reads one byte.
  public mutating func u8() throws(WireError) -> UInt8 {
    try need(1)
    defer { index += 1 }
    return bytes[index]
  }
  /// Reads a signed byte.
  public mutating func i8() throws(WireError) -> Int8 { Int8(bitPattern: try u8()) }
  /// Reads 16 bits, little-endian.
  public mutating func u16() throws(WireError) -> UInt16 {
    try need(2)
    defer { index += 2 }
    return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
  }
  /// Reads a signed 16-bit value.
  public mutating func i16() throws(WireError) -> Int16 { Int16(bitPattern: try u16()) }
  /// Reads 32 bits, little-endian.
  public mutating func u32() throws(WireError) -> UInt32 {
    try need(4)
    defer { index += 4 }
    var value: UInt32 = 0
    for shift in 0..<4 { value |= UInt32(bytes[index + shift]) << UInt32(8 * shift) }
    return value
  }
  /// Reads 64 bits, little-endian.
  public mutating func u64() throws(WireError) -> UInt64 {
    try need(8)
    defer { index += 8 }
    var value: UInt64 = 0
    for shift in 0..<8 { value |= UInt64(bytes[index + shift]) << UInt64(8 * shift) }
    return value
  }
  /// Reads a length-prefixed UTF-8 string.
  public mutating func string() throws(WireError) -> String {
    let count = Int(try u8())
    try need(count)
    let utf8 = bytes[index..<(index + count)]
    index += count
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw WireError(.badPayload, "a string is not valid UTF-8")
    }
    return text
  }
  /// Fails when bytes are left over.
  public func finish() throws(WireError) {
    if remaining != 0 { throw WireError(.badPayload, "\(remaining) unexpected byte(s) after the payload") }
  }
}
