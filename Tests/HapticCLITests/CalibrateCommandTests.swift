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

  @Test("emulate --lra-f0 168: calibrate --write stores 168 ± 2 Hz, render uses it, a power cycle keeps it")
  func emulatedLRAOffItsDatasheet() throws {
    try EmulatedBoardTests.requireBuilt()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let emulate = try EmulatorProcess(arguments: [CLIRunner.executable.path, "emulate", "--lra-f0", "168"])
    defer { emulate.stop() }

    let before = try CLIRunner.run(["probe", "--port", emulate.ptyPath, "--json"])
    #expect(before.stdout.contains("\"calibration\":\"uncalibrated\""), "\(before.stdout)")
    let calibrate = try CLIRunner.run([
      "calibrate", "--port", emulate.ptyPath, "--write", "--boards-dir", folder.path, "--json",
    ])
    #expect(calibrate.status == 0, "calibrate: \(calibrate.stdout)\(calibrate.stderr)")
    let result = Self.json(calibrate.stdout)
    let f0 = try #require(result["f0_hz"] as? Double, "\(calibrate.stdout)")
    #expect(abs(f0 - 168) <= 2, "measured \(f0) Hz for a 168 Hz LRA")
    #expect(result["board_file_f0_hz"] as? Double == 175)
    let written = try #require(result["written"] as? String)
    #expect(written == folder.appendingPathComponent("uno-drv2605l.json").path)

    // The user board file overrides the built-in one: its f0 is the measured one, and render
    // (a pattern with transients, whose shaping follows f0) changes with it.
    let show = try CLIRunner.run(["boards", "show", "uno-drv2605l", "--boards-dir", folder.path])
    #expect(show.stdout.contains(String(format: "LRA %.1f Hz", f0)), "\(show.stdout)")
    let pattern = CLIRunner.packageRoot.appendingPathComponent("Examples/pair-lra.ahap").path  // four transients
    let datasheet = try CLIRunner.run(["render", pattern, "--board", "uno-drv2605l", "--format", "csv"])
    let measured = try CLIRunner.run(["render", pattern, "--board", "uno-drv2605l", "--format", "csv", "--boards-dir", folder.path])
    #expect(datasheet.status == 0 && measured.status == 0)
    #expect(datasheet.stdout != measured.stdout, "render ignored the calibrated f0")

    // The firmware keeps it in EEPROM: after a power cycle (and the reset of the next open)
    // the board still says calibrated.
    kill(emulate.pid, SIGUSR1)
    usleep(200_000)
    let after = try CLIRunner.run(["probe", "--port", emulate.ptyPath, "--json"])
    #expect(after.stdout.contains("\"calibration\":\"calibrated\""), "\(after.stdout)")
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
