/// A minimal DEFLATE decoder (RFC 1951) for the zlib stream (RFC 1950) inside a PNG file, so the
/// plot tests read rsvg-convert's images without a C library (Foundation on Linux has none).
/// Canonical Huffman codes are decoded a bit at a time, as zlib's reference `puff.c` does.
enum Inflate {
  /// A malformed or truncated stream.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The bytes a zlib stream holds (its checksum is not verified: the PNG's CRCs are not either).
  static func zlib(_ data: [UInt8]) throws -> [UInt8] {
    guard data.count >= 2, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0, data[1] & 0x20 == 0 else {
      throw Failure(description: "not a zlib stream with deflate compression")
    }
    var reader = BitReader(bytes: data, position: 2)
    var output: [UInt8] = []
    var last = false
    while !last {
      last = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0: try stored(&reader, into: &output)
      case 1: try inflate(&reader, literals: fixedLiterals, distances: fixedDistances, into: &output)
      case 2:
        let (literals, distances) = try dynamicCodes(&reader)
        try inflate(&reader, literals: literals, distances: distances, into: &output)
      default: throw Failure(description: "reserved block type")
      }
    }
    return output
  }

  /// Bits least-significant first, as DEFLATE packs them.
  private struct BitReader {
    let bytes: [UInt8]
    var position: Int
    var buffer = 0
    var count = 0

    mutating func bits(_ needed: Int) throws -> Int {
      while count < needed {
        guard position < bytes.count else { throw Failure(description: "truncated stream") }
        buffer |= Int(bytes[position]) << count
        position += 1
        count += 8
      }
      let value = buffer & ((1 << needed) - 1)
      buffer >>= needed
      count -= needed
      return value
    }

    mutating func byteAlign() {
      buffer = 0
      count = 0
    }
  }

  /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
  private struct Huffman {
    var counts = Array(repeating: 0, count: 16)
    var symbols: [Int]

    init(lengths: [Int]) {
      for length in lengths { counts[length] += 1 }
      counts[0] = 0
      var offsets = Array(repeating: 0, count: 16)
      for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
      symbols = Array(repeating: 0, count: lengths.count)
      for (symbol, length) in lengths.enumerated() where length != 0 {
        symbols[offsets[length]] = symbol
        offsets[length] += 1
      }
    }

    func decode(_ reader: inout BitReader) throws -> Int {
      var code = 0
      var first = 0
      var index = 0
      for length in 1..<16 {
        code |= try reader.bits(1)
        let count = counts[length]
        if code - count < first { return symbols[index + code - first] }
        index += count
        first = (first + count) << 1
        code <<= 1
      }
      throw Failure(description: "invalid Huffman code")
    }
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
    12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]
  private static let fixedLiterals = Huffman(
    lengths: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
      + Array(repeating: 8, count: 8))
  private static let fixedDistances = Huffman(lengths: Array(repeating: 5, count: 30))
  private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  private static func stored(_ reader: inout BitReader, into output: inout [UInt8]) throws {
    reader.byteAlign()
    guard reader.position + 4 <= reader.bytes.count else { throw Failure(description: "truncated stored block") }
    let length = Int(reader.bytes[reader.position]) | Int(reader.bytes[reader.position + 1]) << 8
    reader.position += 4
    guard reader.position + length <= reader.bytes.count else { throw Failure(description: "truncated stored block") }
    output.append(contentsOf: reader.bytes[reader.position..<reader.position + length])
    reader.position += length
  }

  private static func dynamicCodes(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
    let literalCount = try reader.bits(5) + 257
    let distanceCount = try reader.bits(5) + 1
    let codeLengthCount = try reader.bits(4) + 4
    var codeLengths = Array(repeating: 0, count: 19)
    for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
    let codeLengthCode = Huffman(lengths: codeLengths)
    var lengths: [Int] = []
    while lengths.count < literalCount + distanceCount {
      let symbol = try codeLengthCode.decode(&reader)
      switch symbol {
      case 0..<16: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw Failure(description: "repeat with no previous length") }
        lengths += Array(repeating: previous, count: 3 + (try reader.bits(2)))
      case 17: lengths += Array(repeating: 0, count: 3 + (try reader.bits(3)))
      default: lengths += Array(repeating: 0, count: 11 + (try reader.bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount else { throw Failure(description: "too many code lengths") }
    return (Huffman(lengths: Array(lengths[..<literalCount])), Huffman(lengths: Array(lengths[literalCount...])))
  }

  private static func inflate(
    _ reader: inout BitReader, literals: Huffman, distances: Huffman, into output: inout [UInt8]
  ) throws {
    while true {
      let symbol = try literals.decode(&reader)
      if symbol < 256 {
        output.append(UInt8(symbol))
      } else if symbol == 256 {
        return
      } else {
        let lengthIndex = symbol - 257
        guard lengthIndex < lengthBase.count else { throw Failure(description: "invalid length symbol") }
        let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
        let distanceIndex = try distances.decode(&reader)
        guard distanceIndex < distanceBase.count else { throw Failure(description: "invalid distance symbol") }
        let distance = distanceBase[distanceIndex] + (try reader.bits(distanceExtra[distanceIndex]))
        guard distance <= output.count else { throw Failure(description: "distance before the start") }
        let start = output.count - distance
        for offset in 0..<length { output.append(output[start + offset]) }
      }
    }
  }
}
