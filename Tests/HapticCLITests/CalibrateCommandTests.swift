import Foundation
import Testing

/// `hapticctl calibrate` (issue 15): the driver's measured f0 carried back into the board
/// profile, on the emulated Uno (DRV2605L auto-calibration of a modelled LRA) and the simulator.
@Suite(
  "hapticctl calibrate", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct CalibrateCommandTests {
  static func json(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
  }

  @Test("emulate --lra-f0 168: calibrate --write keeps 168 ± 2 Hz for this board, probe and render use it, a power cycle keeps it and its serial")
  func emulatedLRAOffItsDatasheet() throws {
    try EmulatedBoardTests.requireBuilt()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let emulate = try EmulatorProcess(arguments: [CLIRunner.executable.path, "emulate", "--lra-f0", "168"])
    defer { emulate.stop() }
    let dir = ["--boards-dir", folder.path]

    let before = Self.json(try CLIRunner.run(["probe", "--port", emulate.ptyPath, "--json"] + dir).stdout)
    let channelBefore = (before["channels"] as? [[String: Any]])?.first ?? [:]
    #expect(channelBefore["calibration"] as? String == "uncalibrated" && channelBefore["f0_hz"] as? Double == 175, "\(before)")
    #expect(before["identity"] is NSNull, "a blank EEPROM keeps no serial: \(before)")
    let calibrate = try CLIRunner.run(["calibrate", "--port", emulate.ptyPath, "--write", "--json"] + dir)
    #expect(calibrate.status == 0, "calibrate: \(calibrate.stdout)\(calibrate.stderr)")
    let result = Self.json(calibrate.stdout)
    let f0 = try #require(result["f0_hz"] as? Double, "\(calibrate.stdout)")
    #expect(abs(f0 - 168) <= 2, "measured \(f0) Hz for a 168 Hz LRA")
    #expect(result["board_file_f0_hz"] as? Double == 175)
    let identity = try #require(result["identity"] as? String, "the firmware took a serial: \(calibrate.stdout)")
    let written = try #require(result["written"] as? String)
    #expect(written == folder.appendingPathComponent("calibrations/\(identity).json").path)

    // The board announces its measured f0 now (issue 32 point 4: it said 175.0 Hz before).
    let after = Self.json(try CLIRunner.run(["probe", "--port", emulate.ptyPath, "--json"] + dir).stdout)
    let channelAfter = (after["channels"] as? [[String: Any]])?.first ?? [:]
    #expect(channelAfter["calibration"] as? String == "calibrated", "\(after)")
    #expect(abs((channelAfter["f0_hz"] as? Double ?? 0) - f0) <= 0.11, "\(after)")
    #expect(channelAfter["f0_source"] as? String == "calibrated on the board" && after["identity"] as? String == identity, "\(after)")
    // boards show lists this board; render of this board (a pattern with transients, whose
    // shaping follows f0) differs from the board type's.
    let show = try CLIRunner.run(["boards", "show", "uno-drv2605l"] + dir)
    #expect(show.stdout.contains("calibrated board \(identity)"), "\(show.stdout)")
    let pattern = CLIRunner.packageRoot.appendingPathComponent("Examples/pair-lra.ahap").path  // four transients
    let datasheet = try CLIRunner.run(["render", pattern, "--board", "uno-drv2605l", "--format", "csv"] + dir)
    let measured = try CLIRunner.run(["render", pattern, "--board", identity, "--format", "csv"] + dir)
    #expect(datasheet.status == 0 && measured.status == 0, "\(measured.stderr)")
    #expect(datasheet.stdout != measured.stdout, "render ignored the calibrated f0")

    // The firmware keeps both in EEPROM: after a power cycle (and the reset of the next open)
    // the board still says calibrated, with the same serial.
    kill(emulate.pid, SIGUSR1)
    usleep(200_000)
    let cycled = Self.json(try CLIRunner.run(["probe", "--port", emulate.ptyPath, "--json"] + dir).stdout)
    #expect(((cycled["channels"] as? [[String: Any]])?.first?["calibration"] as? String) == "calibrated", "\(cycled)")
    #expect(cycled["identity"] as? String == identity, "\(cycled)")
    let log = emulate.stop().stderr
    #expect(log.contains(", 1 resets") == false, "the power cycle did not happen:\n\(log)")
  }

  @Test("sim serve --actual-f0 160: calibrate measures 160 ± 2 Hz; bad ports are clear errors")
  func simulatorActualF0() throws {
    // A board whose driver calibrates (sim-lra is shaped on the host: no calibration feature).
    let serve = try BackgroundCLI(["sim", "serve", "--board", "uno-drv2605l", "--actual-f0", "160"])
    defer { _ = serve.terminate() }
    let port = serve.firstLine
    let calibrate = try CLIRunner.run(["calibrate", "--port", port, "--json"])
    #expect(calibrate.status == 0, "calibrate: \(calibrate.stdout)\(calibrate.stderr)")
    let f0 = Self.json(calibrate.stdout)["f0_hz"] as? Double ?? 0
    #expect(abs(f0 - 160) <= 2, "measured \(f0) Hz")
    let sim = try BackgroundCLI(["sim", "serve", "--board", "sim-lra"])
    defer { _ = sim.terminate() }
    let refused = try CLIRunner.run(["calibrate", "--port", sim.firstLine])
    #expect(refused.status == 1 && refused.stderr.contains("the sim-lra board cannot calibrate"), "\(refused.stderr)")
    let missing = try CLIRunner.run(["calibrate", "--port", "/nonexistent/tty"])
    #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/tty"), "\(missing.stderr)")
  }
}
