/// CRC-16/MCRF4XX: polynomial 0x1021 (reflected 0x8408), initial value 0xFFFF, reflected input
/// and output, no final XOR. Check value over "123456789" is 0x6F91.
///
/// The same CRC as Klipper's and MAVLink's, and as avr-libc's `_crc_ccitt_update`, so the
/// firmware computes it with one library call.
public enum CRC16 {
  private static let table: [UInt16] = (0..<256).map { byte in
    var crc = UInt16(byte)
    for _ in 0..<8 {
      crc = crc & 1 != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1
    }
    return crc
  }

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
      for byte in bytes {
        crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)]
      }
      return crc
    }
  }
}
