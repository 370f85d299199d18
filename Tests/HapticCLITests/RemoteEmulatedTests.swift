import Foundation
import Testing

/// The real Uno firmware on another machine (issue 30): the emulated Uno + DRV2605L behind
/// Debian's ser2net on 127.0.0.1, reached over RFC 2217. ser2net opens the board's port when a
/// client connects, which resets the Uno as a local open does (its auto-reset), so the path is
/// the one a board plugged into a Raspberry Pi takes.
@Suite(
  "Remote ports: the emulated Uno + DRV2605L through ser2net", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct RemoteEmulatedTests {
  @Test("send over RFC 2217 to the real firmware: the actuator plays the pattern's second, nothing late")
  func sendToFirmware() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("remote-uno")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = directory.appendingPathComponent("trace.csv")
    let emulate = try EmulatorProcess(arguments: [CLIRunner.executable.path, "emulate", "--trace", trace.path])
    defer { emulate.stop() }
    let bridge = try Ser2Net(device: emulate.ptyPath, baud: 500_000)
    let send = try CLIRunner.run(["send", "Examples/pair-lra.ahap", "--port", bridge.rfc2217, "--board", "uno-drv2605l", "--json"])
    #expect(send.status == 0, "\(send.stdout)\(send.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(send.stdout.utf8)) as? [String: Any], "\(send.stdout)")
    #expect(report["board"] as? String == "uno-drv2605l" && report["stopped_by"] as? String == "end", "\(report)")
    #expect(report["underruns"] as? Int == 0 && report["late_segments"] as? Int == 0, "\(report)")
    usleep(200_000)  // the ring-down into the trace
    emulate.stop()
    // What the actuator felt: above the detection threshold for about the pattern's 1 s.
    let felt = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line -> Double? in
      let fields = line.split(separator: ",")
      guard fields.count == 4, let time = Double(fields[0]), let g = Double(fields[3]), abs(g) >= 0.026 else { return nil }
      return time
    }
    let span = (felt.last ?? 0) - (felt.first ?? 0)
    #expect(span > 0.9 && span < 1.3, "felt for \(span) s (the pattern is 1 s)")
  }
}
