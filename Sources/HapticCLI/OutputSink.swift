import Foundation

/// Where a command writes its output: standard output, or a file written atomically (to a
/// temporary file beside it, renamed into place on success) so a failed run leaves nothing
/// half-written.
final class OutputSink {
  private let handle: FileHandle
  private let temporaryPath: String?
  private let finalPath: String?
  private var buffer: [UInt8] = []
  private var committed = false

  /// Opens `path` for writing, or standard output when `path` is nil or "-".
  init(path: String?) throws {
    guard let path, path != "-" else {
      handle = FileHandle.standardOutput
      temporaryPath = nil
      finalPath = nil
      return
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw CLIError("cannot write \(path): the folder \(directory) does not exist")
    }
    let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary)
    else {
      throw CLIError("cannot write \(path): permission denied or read-only folder")
    }
    self.handle = handle
    temporaryPath = temporary
    finalPath = path
  }

  deinit {
    // Not committed: remove the partial file.
    if !committed, let temporaryPath {
      try? handle.close()
      try? FileManager.default.removeItem(atPath: temporaryPath)
    }
  }

  /// Appends text.
  func write(_ text: String) throws {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Appends raw bytes.
  func write(bytes: [UInt8]) throws {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { try flush() }
  }

  private func flush() throws {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw CLIError("cannot write \(finalPath ?? "standard output"): \(error.localizedDescription)")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Flushes and, for files, renames the temporary file into place.
  func commit() throws {
    try flush()
    committed = true
    guard let temporaryPath, let finalPath else { return }
    try handle.close()
    if rename(temporaryPath, finalPath) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporaryPath)
      throw CLIError("cannot write \(finalPath): \(reason)")
    }
  }
}

/// A runtime failure of a command: printed as `error: message`, exit status 1.
struct CLIError: Error, CustomStringConvertible {
  let message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}

/// Locale-independent fixed-point formatting (CSV and SVG must never get decimal commas).
enum Decimal6 {
  /// `value` with exactly `digits` decimals (0...9).
  static func string(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let integer = Int64(scaled / scale)
    let fraction = Int64(scaled - Double(integer) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(integer) }
    var fractionText = String(fraction)
    fractionText = String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    return "\(sign)\(integer).\(fractionText)"
  }
}
