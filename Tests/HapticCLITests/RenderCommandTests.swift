import Foundation
import HapticTestSupport
import Testing

@Suite("hapticctl render", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"), .serialized)
struct RenderCommandTests {
  let corpus = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
  var sparkle: String { corpus.appendingPathComponent("nthState__Haptrix__Sparkle.ahap").path }

  @Test("csv: the exact header, one row per frame, amplitudes within ±1")
  func csv() throws {
    let result = try CLIRunner.run(["render", sparkle, "--board", "sim-lra", "--format", "csv"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "time_s,channel,amplitude,frequency_hz")
    let rows = lines.dropFirst().map { $0.split(separator: ",") }
    #expect(rows.count > 1000)
    #expect(rows.allSatisfy { $0.count == 4 })
    let amplitudes = rows.compactMap { Double($0[2]) }
    #expect(amplitudes.count == rows.count)
    #expect(amplitudes.allSatisfy { abs($0) <= 1 })
    #expect(amplitudes.contains { $0 < 0 }, "sim-lra brakes")
    #expect(rows.first?[0] == "0.000000" && rows[1][0] == "0.001000")
    let erm = try CLIRunner.run(["render", sparkle, "--board", "sim-erm", "--format", "csv"])
    let ermRows = erm.stdout.split(separator: "\n").dropFirst()
    #expect(ermRows.allSatisfy { $0.hasSuffix(",0") }, "no frequency control → 0 Hz")
  }

  @Test("stats: one JSON object with the documented keys")
  func stats() throws {
    let result = try CLIRunner.run(["render", sparkle, "--board", "uno-drv2605l", "--format", "stats"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    for key in ["drive_duration_s", "pattern_duration_s", "frames", "segments", "wire_bytes", "board", "naive_bytes", "brake_segments"] {
      #expect(object[key] != nil, "missing \(key)")
    }
    #expect(object["board"] as? String == "uno-drv2605l")
    let frames = try #require(object["frames"] as? Int)
    let wire = try #require(object["wire_bytes"] as? Int)
    #expect(wire < frames * 4 / 5)
    #expect(object["brake_segments"] as? Int == 0, "the DRV2605L brakes by itself")
  }

  @Test("stats name the mapping in use: a .haptic clip plays by the square law, whatever --intensity-mapping says")
  func statsNameTheMapping() throws {
    let clip = CLIRunner.packageRoot.appendingPathComponent("Examples/knock-and-buzz.haptic").path
    let ahap = CLIRunner.packageRoot.appendingPathComponent("Examples/envelopes.ahap").path
    for (file, option, expected) in [
      (clip, "sensation-level", "square"), (ahap, "sensation-level", "sensation-level"), (ahap, "square", "square"),
    ] {
      let result = try CLIRunner.run(["render", file, "--board", "sim-lra", "--format", "stats", "--intensity-mapping", option])
      #expect(result.status == 0, "\(result.stderr)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(object["intensity_mapping"] as? String == expected, "\(file) with \(option)")
    }
  }

  @Test("json: segments per channel that tile the render")
  func json() throws {
    let result = try CLIRunner.run(["render", sparkle, "--board", "sim-lra", "--format", "json"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let channels = try #require(object["channels"] as? [[String: Any]])
    #expect(channels.count == 1)
    let segments = try #require(channels[0]["segments"] as? [[String: Any]])
    let stats = try #require(object["stats"] as? [String: Any])
    #expect(segments.count == stats["segments"] as? Int)
    let frames = segments.compactMap { $0["frames"] as? Int }.reduce(0, +)
    #expect(frames == stats["frames"] as? Int)
    #expect(segments.contains { $0["brake"] as? Bool == true })
  }

  @Test("svg to a file: written atomically, a plot with events")
  func svg() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-svg-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("plot.svg").path
    let result = try CLIRunner.run(["render", sparkle, "--board", "sim-lra", "--format", "svg", "-o", out])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasPrefix("<svg"))
    #expect(text.hasSuffix("</svg>\n"))
    #expect(text.contains("<polygon"), "the amplitude trace")
    #expect(text.contains("<title>HapticTransient at "), "transient marks")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plot.svg"], "no temporary left")
  }

  @Test("Bad input: unknown board, unreadable file, unwritable output — clear errors, nothing written")
  func badInput() throws {
    let unknown = try CLIRunner.run(["render", sparkle, "--board", "nope"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown board 'nope' (known boards: sim-lra, sim-erm, uno-drv2605l, uno-hbridge)"))

    let missing = try CLIRunner.run(["render", "/nonexistent/x.ahap", "--board", "sim-lra"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot load /nonexistent/x.ahap"))

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-bad-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("broken.ahap")
    try Data(#"{"Pattern": [{"Event": {"Time": -1, "EventType": "HapticTransient"}}]}"#.utf8).write(to: broken)
    let out = folder.appendingPathComponent("out.csv").path
    let bad = try CLIRunner.run(["render", broken.path, "--board", "sim-lra", "--format", "csv", "-o", out])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("Pattern[0].Event.Time"))
    #expect(!FileManager.default.fileExists(atPath: out), "no output for a failed render")

    let noFolder = try CLIRunner.run(["render", sparkle, "--board", "sim-lra", "-o", "/nonexistent/dir/out.json"])
    #expect(noFolder.status == 1)
    #expect(noFolder.stderr.contains("/nonexistent/dir"))
  }
}
