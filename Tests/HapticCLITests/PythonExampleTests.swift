import Foundation
import Testing

/// Examples/python/play_and_wave.py as a user runs it: against `hapticctl serve` serving a
/// `sim serve` board on a pseudo-terminal (issue 28).
@Suite("The Python client example")
struct PythonExampleTests {
  /// A python3 that has websocket-client: Debian's (python3-websocket, which
  /// Scripts/install-system-deps.sh installs), else the first on PATH.
  static let python: String? = ["/usr/bin/python3", "python3"].first { candidate in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [candidate, "-c", "import websocket"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  @Test(
    "It plays a file and waves the intensity of a held vibration at 60 Hz over the WebSocket",
    .enabled(if: python != nil, "needs python3 with websocket-client (Debian: python3-websocket; Scripts/install-system-deps.sh installs it)"))
  func playsAndWaves() throws {
    let board = try BackgroundCLI(["sim", "serve"])
    defer { _ = board.terminate() }
    let server = try BackgroundCLI(["serve", "--port", board.firstLine, "--listen", "127.0.0.1:0"])
    defer { _ = server.terminate() }
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let root = CLIRunner.packageRoot
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      try #require(Self.python), root.appendingPathComponent("Examples/python/play_and_wave.py").path,
      root.appendingPathComponent("Examples/tap.ahap").path, "--server", base, "--wave", "1",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(output)\(errors)")
    let lines = output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(lines.count == 3, "\(output)")
    #expect(lines.first?["played"] != nil && lines.dropFirst().first?["waving"] as? Int == 2, "\(output)")
    let updates = try #require(lines.last?["updates"] as? Int)
    #expect((55...61).contains(updates), "60 updates a second for 1 s: \(updates)")
  }
}
