/// CRC-16/MCRF4XX: polynomial 0x1021 (reflected 0x8408), initial value 0xFFFF, reflected input
/// and output, no final XOR. Check value over "123456789" is 0x6F91.
///
/// The same CRC as Klipper's and MAVLink's, and as avr-libc's `_crc_ccitt_update`, so the
/// firmware computes it with one library call.
public enum CRC16 {
  /// Byte-wise table, then a second table for two bytes per step (slicing-by-2):
  /// `table[256 + i]` is the CRC of byte i followed by a zero byte.
  private static let table: [UInt16] = {
    var first = [UInt16](repeating: 0, count: 256)
    for byte in 0..<256 {
      var crc = UInt16(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1 }
      first[byte] = crc
    }
    let second = first.map { (value: UInt16) -> UInt16 in (value >> 8) ^ first[Int(value & 0xFF)] }
    return first + second
  }()

  /// The CRC of `bytes`.
  public static func checksum(_ bytes: [UInt8]) -> UInt16 {
    bytes.withUnsafeBufferPointer { checksum($0) }
  }

  /// The CRC of a slice.
  public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    bytes.withUnsafeBufferPointer { checksum($0) }
  }

  /// The CRC of the bytes in a buffer (the non-generic core).
  public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
    table.withUnsafeBufferPointer { table in
      var crc: UInt16 = 0xFFFF
      var index = 0
      let count = bytes.count
      while index + 1 < count {
        crc ^= UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
        crc = table[256 + Int(crc & 0xFF)] ^ table[Int(crc >> 8)]
        index += 2
      }
      if index < count {
        crc = (crc >> 8) ^ table[Int((crc ^ UInt16(bytes[index])) & 0xFF)]
      }
      return crc
    }
  }
}
