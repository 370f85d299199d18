import Foundation

/// Running external tools.
enum Shell {
  /// `text` quoted for a POSIX shell when it needs it.
  static func quote(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0) }
    return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The executable `name` on PATH (or `name` itself when it is a path).
  static func find(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs a command with its standard output and error captured together; standard input is
  /// empty.
  static func capture(_ command: [String], what: String) throws -> (status: Int32, output: String) {
    guard let executable = find(command[0]) else { throw CLIError("\(command[0]) not found on PATH (needed for \(what))") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw CLIError("cannot run \(command[0]): \(error.localizedDescription)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Runs a command with inherited standard streams (its standard output on standard error
  /// when `quietStandardOutput`, for commands whose own output is machine-read); a failure is a
  /// CLI error naming `what`.
  static func run(_ command: [String], in folder: String?, what: String, quietStandardOutput: Bool = false) throws {
    guard let executable = find(command[0]) else { throw CLIError("\(command[0]) not found on PATH (needed for \(what))") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(command.dropFirst())
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if quietStandardOutput { process.standardOutput = FileHandle.standardError }
    do {
      try process.run()
    } catch {
      throw CLIError("cannot run \(command[0]): \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CLIError("\(what) failed (\(command[0]) exited with status \(process.terminationStatus))")
    }
  }
}
