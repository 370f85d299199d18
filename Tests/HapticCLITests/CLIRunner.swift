import Foundation

/// Runs the built `hapticctl` executable and captures what it prints.
enum CLIRunner {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// The `hapticctl` binary next to the test bundle (swift test builds it first).
  static let executable: URL = {
    let candidates = [
      Bundle.main.bundleURL.appendingPathComponent("hapticctl"),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hapticctl"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
  }()

  /// The package root, from this file's location.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Runs `hapticctl` with `arguments` (standard input empty) and waits for it to exit.
  static func run(_ arguments: [String]) throws -> Result {
    try run(arguments, input: [])
  }

  /// A new empty folder under the temporary directory, `hapticctl-<name>-<UUID>`; the caller
  /// removes it.
  static func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A new scratch folder holding one file `name` with `contents`; remove the folder after.
  static func scratchFile(_ name: String, _ contents: String) throws -> (folder: URL, path: String) {
    let folder = try scratchFolder(name)
    let path = folder.appendingPathComponent(name).path
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return (folder, path)
  }
}

/// A Data slot written by one thread and read by another.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  func set(_ newValue: Data) { lock.withLock { data = newValue } }
  var isSet: Bool { lock.withLock { data != nil } }
  var value: Data { lock.withLock { data ?? Data() } }
}

extension CLIRunner {
  /// Runs `hapticctl` feeding `lines` to its standard input, each after waiting its delay
  /// (seconds), then closing the input; both output pipes are read to the end before waiting,
  /// so a chatty child never blocks on a full pipe.
  static func run(_ arguments: [String], input lines: [(delay: Double, line: String)]) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    let input = Pipe()
    let out = Pipe()
    let err = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = LockedData()
    let outData = LockedData()
    let errReader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    let outReader = Thread { outData.set(out.fileHandleForReading.readDataToEndOfFile()) }
    errReader.start()
    outReader.start()
    for (delay, line) in lines {
      usleep(UInt32(delay * 1_000_000))
      try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    while !errData.isSet || !outData.isSet { usleep(1000) }
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData.value, as: UTF8.self),
      stderr: String(decoding: errData.value, as: UTF8.self))
  }
}
