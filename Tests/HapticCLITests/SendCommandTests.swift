import Foundation
import HapticTestSupport
import HapticAudio
import Testing

@Suite("hapticctl send and presets", .serialized)
struct SendCommandTests {
  static let transient = "Tests/HapticAHAPTests/Fixtures/good/transient.ahap"
  static let long = "Tests/HapticAHAPTests/Fixtures/good/parameters-and-envelopes.ahap"

  private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("send --audio-out: the pattern's sounds written with their onsets, 0.3 s apart; --no-audio writes none")
  func sendWritesAudio() throws {
    let folder = NSTemporaryDirectory() + "hapticctl-send-audio-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let click = (0..<960).map { Float(0.8 * sin(2 * Double.pi * 1_500 * Double($0) / 48_000)) }
    try AudioFile.write(AudioClip(sampleRate: 48_000, samples: click), to: folder + "/click.caf", format: .caf)
    try """
      {"Pattern": [
        {"Event": {"Time": 0, "EventType": "HapticTransient"}},
        {"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "click.caf"}},
        {"Event": {"Time": 0.3, "EventType": "HapticTransient"}},
        {"Event": {"Time": 0.3, "EventType": "AudioCustom", "EventWaveformPath": "click.caf"}},
        {"Event": {"Time": 0.4, "EventType": "AudioCustom", "EventWaveformPath": "missing.caf"}}
      ]}
      """.write(toFile: folder + "/p.ahap", atomically: true, encoding: .utf8)
    let result = try CLIRunner.run(["send", folder + "/p.ahap", "--sim", "--audio-out", folder + "/out.wav"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("missing.caf"), "a missing sound is a warning")
    let heard = try OnsetAnalysis.audioOnsets(file: folder + "/out.wav", origin: 0)
    #expect(heard.count == 2, "\(heard)")
    if heard.count == 2 { #expect(abs(heard[1] - heard[0] - 0.3) < 0.001) }
    let csv = try String(contentsOfFile: folder + "/out.wav.onsets.csv", encoding: .utf8)
    #expect(csv.hasPrefix("time_s,tag,samples\n") && csv.split(separator: "\n").count == 2)
    let none = try CLIRunner.run(["send", folder + "/p.ahap", "--sim", "--no-audio", "--audio-out", folder + "/none.wav"])
    #expect(none.status == 0 && !FileManager.default.fileExists(atPath: folder + "/none.wav"))
    let bad = try CLIRunner.run(["send", folder + "/p.ahap", "--sim", "--audio-out", folder + "/nope/out.wav"])
    #expect(bad.status != 0 && bad.stderr.contains("does not exist"), "\(bad.stderr)")
  }

  @Test("send --sim plays and reports the documented keys")
  func sendSim() throws {
    let result = try CLIRunner.run(["send", Self.transient, "--sim", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try object(result.stdout)
    for key in ["pattern_duration_s", "drive_duration_s", "wire_bytes", "retransmits", "underruns", "max_onset_error_ms"] {
      #expect(report[key] != nil, "missing \(key)")
    }
    #expect(try #require(report["wire_bytes"] as? Int) > 0)
    #expect(try #require(report["max_onset_error_ms"] as? Double) <= 1)
    // Measured from the simulated board's drive log (it used to print 0 without measuring):
    // events 0.4 ms off the frame grid start on the nearest frame, 0.4 ms away.
    let file = NSTemporaryDirectory() + "hapticctl-offgrid-\(getpid()).ahap"
    try """
      {"Pattern": [{"Event": {"Time": 0.0004, "EventType": "HapticTransient"}},
                   {"Event": {"Time": 0.1004, "EventType": "HapticTransient"}}]}
      """.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let measured = try object(try CLIRunner.run(["send", file, "--sim", "--json"]).stdout)
    let onset = try #require(measured["max_onset_error_ms"] as? Double)
    #expect(onset >= 0.3 && onset <= 1, "\(onset) ms")
    let text = try CLIRunner.run(["send", "--preset", "impact-heavy", "--intensity", "0.5", "--sim", "--board", "sim-erm"])
    #expect(text.status == 0 && text.stdout.hasPrefix("played on sim-erm:"), "\(text.stdout)\(text.stderr)")
  }

  @Test("send through sim serve on a pty: loop, rate and live control, then stop")
  func sendOverPtyLive() throws {
    let server = try BackgroundCLI(["sim", "serve", "--board", "sim-lra"])
    defer { _ = server.terminate() }
    let result = try CLIRunner.run(
      ["send", Self.long, "--port", server.firstLine, "--loop", "--rate", "2", "--live", "--json"],
      input: [(0.4, "intensity 0.4"), (0.2, "sharpness -0.2"), (0.2, "pause"), (0.2, "resume"), (0.1, "seek 0.1"),
              (0.2, "nonsense"), (0.2, "stop")])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("unknown command 'nonsense'"))
    let report = try object(result.stdout)
    #expect(report["stopped_by"] as? String == "stop")
    #expect(try #require(report["drive_duration_s"] as? Double) > 1)
    #expect(try #require(report["wire_bytes"] as? Int) > 100)
    #expect(report["retransmits"] is Int && report["underruns"] is Int)
  }

  @Test("send refuses a board without an actuator, with the reason")
  func sendNoActuator() throws {
    let server = try BackgroundCLI(["sim", "serve", "--no-actuator"])
    defer { _ = server.terminate() }
    let result = try CLIRunner.run(["send", Self.transient, "--port", server.firstLine])
    #expect(result.status == 1)
    #expect(result.stderr.contains("haptics not supported: no actuator reported"), "\(result.stderr)")
  }

  @Test("SIGTERM stops a looping send cleanly")
  func sendInterrupted() throws {
    let send = try BackgroundCLI(["send", Self.long, "--sim", "--loop"], waitsForLine: false)
    usleep(500_000)
    let (status, stderr) = send.terminate()
    #expect(status == 130, "\(stderr)")
    #expect(stderr.contains("interrupted: the board was stopped"))
  }

  @Test("send usage errors")
  func sendUsage() throws {
    let both = try CLIRunner.run(["send", Self.transient, "--preset", "success", "--sim"])
    #expect(both.status == 64 && both.stderr.contains("exactly one of FILE, --channel LIST FILE, --preset NAME or --rom N"))
    let noBoard = try CLIRunner.run(["send", Self.transient])
    #expect(noBoard.status == 64 && noBoard.stderr.contains("--port PATH, --sim or --server URL"), "\(noBoard.stderr)")
    let preset = try CLIRunner.run(["send", "--preset", "tada", "--sim"])
    #expect(preset.status == 64 && preset.stderr.contains("unknown preset 'tada'"))
    let rom = try CLIRunner.run(["send", "--rom", "12", "--sim"])
    #expect(rom.status == 1 && rom.stderr.contains("has no driver ROM effects"), "\(rom.stderr)")
    let missing = try CLIRunner.run(["send", "nope.ahap", "--sim"])
    #expect(missing.status == 1 && missing.stderr.contains("nope.ahap"))
  }

  @Test("presets lists every preset")
  func presets() throws {
    let result = try CLIRunner.run(["presets", "--json"])
    #expect(result.status == 0)
    let names = try result.stdout.split(separator: "\n").map { try object(String($0))["name"] as? String }
    #expect(names.count == 15 && names.contains("impact-rigid") && names.contains("levelChange"))
  }
}
