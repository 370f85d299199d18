/// Consistent Overhead Byte Stuffing: encodes any bytes into bytes without 0x00, so 0x00 can
/// delimit frames. Overhead: one byte plus one per 254 bytes.
public enum COBS {
  /// Encodes `input` (the 0x00 delimiter is not added).
  public static func encode(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count + input.count / 254 + 2)
    var codeIndex = 0
    output.append(0)
    var code: UInt8 = 1
    for byte in input {
      if byte == 0 {
        output[codeIndex] = code
        codeIndex = output.count
        output.append(0)
        code = 1
      } else {
        output.append(byte)
        code += 1
        if code == 0xFF {
          output[codeIndex] = code
          codeIndex = output.count
          output.append(0)
          code = 1
        }
      }
    }
    output[codeIndex] = code
    return output
  }

  /// Decodes one encoded frame (without its delimiter), or `nil` when it is not valid COBS.
  public static func decode<C: Collection>(_ input: C) -> [UInt8]? where C.Element == UInt8 {
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = input.startIndex
    while index != input.endIndex {
      let code = input[index]
      guard code != 0 else { return nil }
      index = input.index(after: index)
      for _ in 1..<Int(code) {
        guard index != input.endIndex else { return nil }
        let byte = input[index]
        guard byte != 0 else { return nil }
        output.append(byte)
        index = input.index(after: index)
      }
      if code != 0xFF && index != input.endIndex { output.append(0) }
    }
    return output
  }
}
