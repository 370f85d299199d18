import Foundation

/// A `hapticctl` process left running in the background (e.g. `sim serve`), with its first
/// line of standard output and a clean way to end it.
final class BackgroundCLI {
  let process = Process()
  private let out = Pipe()
  private let err = Pipe()
  /// The first line the process printed (for `sim serve`: the pseudo-terminal path).
  private(set) var firstLine = ""

  /// Starts `hapticctl arguments` and, when `waitsForLine`, waits for its first line (a
  /// process that prints nothing first would block it).
  init(_ arguments: [String], waitsForLine: Bool = true) throws {
    process.executableURL = CLIRunner.executable
    process.arguments = arguments
    process.currentDirectoryURL = CLIRunner.packageRoot
    process.standardOutput = out
    process.standardError = err
    try process.run()
    guard waitsForLine else { return }
    var line: [UInt8] = []
    let handle = out.fileHandleForReading
    while true {
      let byte = handle.readData(ofLength: 1)
      guard let first = byte.first else { break }
      if first == UInt8(ascii: "\n") { break }
      line.append(first)
    }
    firstLine = String(decoding: line, as: UTF8.self)
  }

  /// Sends SIGTERM and waits for the exit; returns the status and standard error.
  func terminate() -> (status: Int32, stderr: String) {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, stderr)
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}
