import Foundation
import Testing

@Suite("hapticctl characterize", .serialized)
struct CharacterizeCommandTests {
  @Test("table: the sweep, the figures and the transients of the default board")
  func table() throws {
    let result = try CLIRunner.run(["characterize", "--board", "sim-lra"])
    #expect(result.status == 0, "\(result.stderr)")
    let text = result.stdout
    #expect(text.hasPrefix("sim-lra: Simulated LRA"))
    #expect(text.contains("sharpness band 147–211 Hz"))
    for label in [
      "steps (2.5 dB)", "smallest step (dB)", "0.9 → 1.0 (dB)", "lowest felt intensity", "overshoot at 1",
      "rise to 90 % at 1 (ms)", "stop at 1 (ms)", "loudness tilt at intensity 1", "lone transient (intensity 1)",
      "% of the transient alone",
    ] {
      #expect(text.contains(label), "missing \(label)")
    }
    // 20 intensity rows of five sharpness columns.
    let rows = text.split(separator: "\n").filter { line in
      let first = line.split(separator: " ").first ?? ""
      return first.count == 4 && Double(first) != nil
    }
    #expect(rows.count == 20)
    #expect(rows.allSatisfy { $0.split(separator: " ").count == 6 })
  }

  @Test("json: one object per board with every channel's sweeps and figures")
  func json() throws {
    let result = try CLIRunner.run(["characterize", "--board", "uno-drv2605l", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["board"] as? String == "uno-drv2605l")
    let channels = try #require(object["channels"] as? [[String: Any]])
    #expect(channels.count == 1)
    #expect(channels[0]["sharpness_band_hz"] is NSNull)
    let sweeps = try #require(channels[0]["sweeps"] as? [[String: Any]])
    #expect(sweeps.count == 5)
    let steady = try #require(sweeps[2]["steady_g"] as? [Double])
    #expect(steady.count == 20)
    #expect(zip(steady, steady.dropFirst()).allSatisfy { $0 < $1 }, "every intensity step adds")
    #expect((sweeps[2]["distinguishable_steps"] as? Int ?? 0) >= 10)
    let mixes = try #require(channels[0]["transient_over_continuous"] as? [[String: Any]])
    #expect(mixes.count == 3 && mixes.allSatisfy { ($0["ratio"] as? Double ?? 0) >= 0.9 })
  }

  @Test("svg to a file: a log-G plot per channel with the threshold; nothing left on failure")
  func svg() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-char-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("map.svg").path
    let result = try CLIRunner.run(["characterize", "--board", "sim-erm", "--format", "svg", "-o", path])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
    #expect(svg.contains("threshold 0.026 G"))
    #expect(svg.components(separatedBy: "<polyline").count - 1 == 5, "one curve per sharpness")
    let unknown = try CLIRunner.run(["characterize", "--board", "nope", "-o", folder.appendingPathComponent("x.svg").path])
    #expect(unknown.status == 64 && unknown.stderr.contains("unknown board 'nope'"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["map.svg"])
  }

  @Test("a user board file: its own ERM break-away voltage is kicked past, so 0.05 is felt")
  func userBoard() throws {
    let folder = NSTemporaryDirectory() + "hapticctl-char-boards-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let erm = try String(contentsOfFile: CLIRunner.packageRoot.path + "/Boards/sim-erm.json", encoding: .utf8)
    try erm.replacingOccurrences(of: "\"sim-erm\"", with: "\"sticky-erm\"")
      .replacingOccurrences(of: "\"coastMs\": 80", with: "\"coastMs\": 80, \"startVoltage\": 1.5")
      .write(toFile: folder + "/sticky.json", atomically: true, encoding: .utf8)
    let result = try CLIRunner.run([
      "characterize", "--board", "sticky-erm", "--boards-dir", folder, "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let channels = try #require(object["channels"] as? [[String: Any]])
    let sweeps = try #require(channels.first?["sweeps"] as? [[String: Any]])
    for sweep in sweeps {
      #expect(sweep["lowest_felt_intensity"] as? Double == 0.05, "\(sweep["sharpness"] ?? "?")")
    }
    let bad = erm.replacingOccurrences(of: "\"coastMs\": 80", with: "\"coastMs\": 80, \"startVoltage\": 9")
    try bad.write(toFile: folder + "/sticky.json", atomically: true, encoding: .utf8)
    let validate = try CLIRunner.run(["boards", "validate", folder + "/sticky.json"])
    #expect(validate.status == 1)
    #expect(validate.stderr.contains("channels[0].startVoltage: must be in (0, ratedVoltage]"), "\(validate.stderr)")
  }
}
