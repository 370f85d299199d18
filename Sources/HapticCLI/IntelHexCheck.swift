import Foundation

/// Checks a firmware image in Intel hex format before a flashing tool writes it to a board, so
/// that a damaged file is reported by name and line and the board is never touched.
enum IntelHexCheck {
  /// Throws a ``CLIError`` naming `path` and the first bad line; returns the data bytes counted.
  @discardableResult
  static func validate(_ path: String) throws -> Int {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("cannot flash \(path): cannot read the file")
    }
    guard let text = String(data: data, encoding: .ascii) else {
      throw CLIError("cannot flash \(path): not an Intel hex file (binary content)")
    }
    var bytes = 0
    var ended = false
    // "\r\n" is one Character: split on any line break, CRLF as one.
    for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      if line.isEmpty { continue }
      let number = index + 1
      func bad(_ why: String) -> CLIError { CLIError("cannot flash \(path): line \(number): \(why) (not a valid Intel hex file)") }
      if ended { throw bad("data after the end-of-file record") }
      guard line.first == ":" else { throw bad("does not start with ':'") }
      let digits = Array(line.dropFirst())
      guard digits.count >= 10, digits.count % 2 == 0 else { throw bad("odd or too short a record") }
      var record: [UInt8] = []
      for i in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { throw bad("not hexadecimal") }
        record.append(byte)
      }
      guard Int(record[0]) + 5 == record.count else { throw bad("length byte \(record[0]) does not match the record") }
      guard record.reduce(0, { $0 &+ $1 }) == 0 else { throw bad("checksum mismatch") }
      switch record[3] {
      case 0: bytes += Int(record[0])
      case 1: ended = true
      case 2...5: break
      default: throw bad("unknown record type \(record[3])")
      }
    }
    guard ended else { throw CLIError("cannot flash \(path): no end-of-file record (truncated Intel hex file?)") }
    guard bytes > 0 else { throw CLIError("cannot flash \(path): the Intel hex file holds no data") }
    return bytes
  }
}
