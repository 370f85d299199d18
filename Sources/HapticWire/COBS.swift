/// Consistent Overhead Byte Stuffing: encodes any bytes into bytes without 0x00, so 0x00 can
/// delimit frames. Overhead: one byte plus one per 254 bytes.
public enum COBS {
  /// Encodes `input` (the 0x00 delimiter is not added).
  ///
  /// - Parameter extra: capacity to reserve beyond the encoding (e.g. 1 for a delimiter).
  public static func encode(_ input: [UInt8], reserving extra: Int = 0) -> [UInt8] {
    input.withUnsafeBufferPointer { encode($0, reserving: extra) }
  }

  /// Encodes from a buffer (the non-generic core); `delimit` appends the 0x00 delimiter.
  public static func encode(_ input: UnsafeBufferPointer<UInt8>, reserving extra: Int = 0, delimit: Bool = false)
    -> [UInt8]
  {
    let capacity = input.count + input.count / 254 + 2
    var output = [UInt8](unsafeUninitializedCapacity: capacity + extra + (delimit ? 1 : 0)) { out, initialized in
      do {
        var codeIndex = 0
        var written = 1
        var code: UInt8 = 1
        for byte in input {
          if byte == 0 {
            out[codeIndex] = code
            codeIndex = written
            written += 1
            code = 1
          } else {
            out[written] = byte
            written += 1
            code += 1
            if code == 0xFF {
              out[codeIndex] = code
              codeIndex = written
              written += 1
              code = 1
            }
          }
        }
        out[codeIndex] = code
        if delimit {
          out[written] = 0
          written += 1
        }
        initialized = written
      }
    }
    if extra > 0 { output.reserveCapacity(output.count + extra) }
    return output
  }

  /// Decodes one encoded frame (without its delimiter), or `nil` when it is not valid COBS.
  public static func decode(_ input: [UInt8]) -> [UInt8]? {
    input.withUnsafeBufferPointer { decode($0) }
  }

  /// Decodes from a buffer (the non-generic core).
  public static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var valid = true
    // The decoded frame is never longer than its encoding.
    let output = [UInt8](unsafeUninitializedCapacity: input.count) { out, initialized in
      if let written = decode(input, into: out) {
        initialized = written
      } else {
        valid = false
        initialized = 0
      }
    }
    return valid ? output : nil
  }

  /// Decodes into `out` (at least `input.count` bytes); returns the bytes written, or `nil`
  /// when the input is not valid COBS. Allocates nothing.
  public static func decode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    let count = input.count
    var index = 0
    var written = 0
    while index < count {
      let code = Int(input[index])
      guard code != 0, index + code <= count else { return nil }
      index += 1
      for offset in 0..<(code - 1) {
        let byte = input[index + offset]
        if byte == 0 { return nil }
        out[written] = byte
        written += 1
      }
      index += code - 1
      if code != 0xFF && index < count {
        out[written] = 0
        written += 1
      }
    }
    return written
  }
}
