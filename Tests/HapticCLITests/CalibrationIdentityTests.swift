import Foundation
import HapticTestSupport
import Testing

/// Issue 32, point 4: a calibration belongs to one physical board, not to every board of its
/// type. Before, `calibrate --write` wrote a user board file that gave every Uno + DRV2605L the
/// measured f0, and `probe` kept printing the board file's 175.0 Hz after calibrating.
@Suite("Calibration per physical board", .serialized)
struct CalibrationIdentityTests {
  private func object(_ result: CLIRunner.Result, _ what: String) throws -> [String: Any] {
    #expect(result.status == 0, "\(what): \(result.stdout)\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(what): \(result.stdout)")
  }

  private func channel0(_ probe: [String: Any]) throws -> [String: Any] {
    try #require((probe["channels"] as? [[String: Any]])?.first, "\(probe)")
  }

  @Test("Two boards of one type: each keeps its own f0; probe, boards show and render say which")
  func twoBoards() throws {
    let folder = try CLIRunner.scratchFolder("calibrations")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try BackgroundCLI(["sim", "serve", "--board", "uno-drv2605l", "--actual-f0", "160"])
    defer { _ = first.terminate() }
    let second = try BackgroundCLI(["sim", "serve", "--board", "uno-drv2605l", "--actual-f0", "190"])
    defer { _ = second.terminate() }
    let dir = ["--boards-dir", folder.path]

    // A fresh board has no identity yet; its f0 is the board file's.
    let fresh = try object(try CLIRunner.run(["probe", "--port", first.firstLine, "--json"] + dir), "probe before")
    #expect(fresh["identity"] is NSNull && fresh["board_serial"] is NSNull, "\(fresh)")
    #expect(try channel0(fresh)["f0_hz"] as? Double == 175 && channel0(fresh)["f0_source"] as? String == "board file")

    // Calibrating gives it a serial and keeps the result under it.
    let calibrated = try object(try CLIRunner.run(["calibrate", "--port", first.firstLine, "--write", "--json"] + dir), "calibrate")
    let identity = try #require(calibrated["identity"] as? String, "\(calibrated)")
    #expect(identity.hasPrefix("serial-") && identity.count == 15, "\(identity)")
    #expect(calibrated["written"] as? String == folder.appendingPathComponent("calibrations/\(identity).json").path, "\(calibrated)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("uno-drv2605l.json").path), "no board-wide override")

    // probe shows the measured f0, from the board itself, and the same identity.
    let after = try object(try CLIRunner.run(["probe", "--port", first.firstLine, "--json"] + dir), "probe after")
    #expect(after["identity"] as? String == identity)
    #expect(try channel0(after)["f0_hz"] as? Double == 160 && channel0(after)["f0_source"] as? String == "calibrated on the board", "\(after)")

    // The other board of the same type is untouched.
    let other = try object(try CLIRunner.run(["probe", "--port", second.firstLine, "--json"] + dir), "probe other")
    #expect(try channel0(other)["f0_hz"] as? Double == 175 && other["identity"] is NSNull, "\(other)")
    let otherCalibrated = try object(
      try CLIRunner.run(["calibrate", "--port", second.firstLine, "--write", "--json"] + dir), "calibrate other")
    let otherIdentity = try #require(otherCalibrated["identity"] as? String)
    #expect(otherIdentity != identity)

    // boards show lists both boards with their own f0; render names one by its identity.
    let show = try CLIRunner.run(["boards", "show", "uno-drv2605l"] + dir)
    #expect(show.stdout.contains("calibrated board \(identity)") && show.stdout.contains("channel 0 f0 160.0 Hz"), "\(show.stdout)")
    #expect(show.stdout.contains("calibrated board \(otherIdentity)") && show.stdout.contains("channel 0 f0 190.0 Hz"), "\(show.stdout)")
    #expect(show.stdout.contains("channel 0: LRA 175.0 Hz"), "the board type keeps its file's f0:\n\(show.stdout)")
    let pattern = "Examples/pair-lra.ahap"  // transients, whose shaping follows f0
    let typeRender = try CLIRunner.run(["render", pattern, "--board", "uno-drv2605l", "--format", "csv"] + dir)
    let boardRender = try CLIRunner.run(["render", pattern, "--board", identity, "--format", "csv"] + dir)
    #expect(typeRender.status == 0 && boardRender.status == 0, "\(boardRender.stderr)")
    #expect(typeRender.stdout != boardRender.stdout, "render --board \(identity) ignored its f0")
  }

  @Test("A board that keeps no calibration itself plays with the one kept on this host for its serial alone")
  func keptOnTheHost() throws {
    let folder = try CLIRunner.scratchFolder("calibrations-kept")
    defer { try? FileManager.default.removeItem(at: folder) }
    let record = """
      {"identity": "serial-0BADCAFE", "board": "uno-drv2605l", "calibrated_at": "2026-11-27T12:00:00Z",
       "channels": [{"channel": 0, "f0_hz": 171.2}]}
      """
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("calibrations"), withIntermediateDirectories: true)
    try record.write(to: folder.appendingPathComponent("calibrations/serial-0BADCAFE.json"), atomically: true, encoding: .utf8)
    let dir = ["--boards-dir", folder.path]
    let mine = try BackgroundCLI(["sim", "serve", "--board", "uno-drv2605l", "--serial", "0BADCAFE"])
    defer { _ = mine.terminate() }
    let stranger = try BackgroundCLI(["sim", "serve", "--board", "uno-drv2605l", "--serial", "12345678"])
    defer { _ = stranger.terminate() }
    let probed = try object(try CLIRunner.run(["probe", "--port", mine.firstLine, "--json"] + dir), "probe")
    #expect(probed["identity"] as? String == "serial-0BADCAFE" && probed["board_serial"] as? String == "0BADCAFE", "\(probed)")
    #expect(try channel0(probed)["f0_hz"] as? Double == 171.2, "\(probed)")
    #expect(try channel0(probed)["f0_source"] as? String == "calibration kept on this host", "\(probed)")
    // A record that cannot be read is skipped, named in a warning.
    try "{not json".write(to: folder.appendingPathComponent("calibrations/serial-22222222.json"), atomically: true, encoding: .utf8)
    let text = try CLIRunner.run(["probe", "--port", mine.firstLine] + dir)
    #expect(text.stderr.contains("calibrations/serial-22222222.json: not a calibration record"), "\(text.stderr)")
    #expect(text.stdout.contains("f0 171.2 Hz (calibration kept on this host)") && text.stdout.contains("this board: board serial 0BADCAFE"), "\(text.stdout)")
    let other = try object(try CLIRunner.run(["probe", "--port", stranger.firstLine, "--json"] + dir), "probe stranger")
    #expect(try channel0(other)["f0_hz"] as? Double == 175 && channel0(other)["f0_source"] as? String == "board file", "\(other)")
    // And it plays.
    let sent = try CLIRunner.run(["send", "Examples/tap.ahap", "--port", mine.firstLine, "--no-audio"] + dir)
    #expect(sent.status == 0, "\(sent.stderr)")
    let bad = try CLIRunner.run(["sim", "serve", "--serial", "0"])
    #expect(bad.status == 64 && bad.stderr.contains("--serial 0"), "\(bad.stderr)")
  }
}
