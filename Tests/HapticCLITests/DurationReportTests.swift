import Foundation
import HapticTestSupport
import Testing

/// Issue 32, point 3: one pattern duration (Apple's: the end of the last event) and one drive
/// duration (until the drive is at rest), named so and equal in every report. Before, a file
/// with a `Sustained` 0 event reported 0.600 s (validate), 0.106 s (render) and 0.143 s (send),
/// and repeated sends of one file 0.029 to 0.103 s.
@Suite("One pattern duration and one drive duration in every report", .serialized)
struct DurationReportTests {
  /// The issue's case: a not-sustained event whose EventDuration (0.6 s) outlasts its attack
  /// and decay by far.
  static let endsEarly = """
    {"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.6,
      "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1},
                          {"ParameterID": "Sustained", "ParameterValue": 0},
                          {"ParameterID": "DecayTime", "ParameterValue": 0.4}]}}]}
    """

  private func object(_ result: CLIRunner.Result, _ what: String) throws -> [String: Any] {
    #expect(result.status == 0, "\(what): \(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(what): \(result.stdout)")
  }

  private func durations(_ object: [String: Any]) -> (pattern: Double?, drive: Double?) {
    (object["pattern_duration_s"] as? Double, object["drive_duration_s"] as? Double)
  }

  @Test("validate, render, simulate and send --sim give the same two durations", arguments: [
    "Examples/tap.ahap", "Examples/envelopes.ahap", "Examples/knock-and-buzz.haptic", "Examples/audio-click.ahap", "ends-early",
  ])
  func sameEverywhere(_ name: String) throws {
    let scratch = try CLIRunner.scratchFile("duration-ends-early.ahap", Self.endsEarly)
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let file = name == "ends-early" ? scratch.path : name
    let validated = try object(try CLIRunner.run(["validate", file, "--json"]), "validate")
    let rendered = durations(try object(try CLIRunner.run(["render", file, "--board", "sim-lra", "--format", "stats"]), "render"))
    let simulated = durations(try object(try CLIRunner.run(["simulate", file, "--board", "sim-lra"]), "simulate"))
    let sent = durations(try object(try CLIRunner.run(["send", file, "--sim", "--json", "--no-audio"]), "send"))
    let pattern = try #require(validated["pattern_duration_s"] as? Double)
    #expect(rendered.pattern == pattern && simulated.pattern == pattern && sent.pattern == pattern, "\(file)")
    let drive = try #require(rendered.drive)
    #expect(simulated.drive == drive, "\(file): simulate \(simulated.drive ?? -1) s, render \(drive) s")
    #expect(sent.drive == drive, "\(file): send \(sent.drive ?? -1) s, render \(drive) s")
    if name == "ends-early" {
      // The event falls silent after its decay (0.016 s), long before its 0.6 s: said so.
      #expect(pattern == 0.6 && drive > 0.01 && drive < 0.05, "\(drive)")
      let warnings = try #require(validated["warnings"] as? [[String: Any]])
      #expect(warnings.contains { $0["code"] as? String == "endsEarly" && $0["path"] as? String == "Pattern[0].Event.EventDuration" }, "\(warnings)")
    }
  }

  @Test("Over a served board the drive duration is the render's, run after run; the text names both")
  func sameOverAPort() throws {
    let server = try BackgroundCLI(["sim", "serve"])
    defer { _ = server.terminate() }
    let file = "Examples/heartbeat-loop.ahap"
    let rendered = durations(try object(try CLIRunner.run(["render", file, "--board", "sim-lra", "--format", "stats"]), "render"))
    for run in 0..<3 {
      let sent = durations(try object(try CLIRunner.run(["send", file, "--port", server.firstLine, "--json", "--no-audio"]), "send \(run)"))
      #expect(sent.pattern == rendered.pattern && sent.drive == rendered.drive, "run \(run): \(sent) against \(rendered)")
    }
    let text = try CLIRunner.run(["send", file, "--port", server.firstLine, "--no-audio"])
    #expect(text.stdout.contains("pattern 0.800 s, drive \(String(format: "%.3f", rendered.drive ?? -1)) s"), "\(text.stdout)")
    let validated = try CLIRunner.run(["validate", file])
    #expect(validated.stdout.contains("pattern duration 0.800 s"), "\(validated.stdout)")
  }
}
