import Foundation
import Testing

/// A rig with the real Uno firmware in it (issue 30): the emulated Uno + DRV2605L (`hapticctl
/// emulate --trace --trace-host-time`, its rows put on the host's clock by the emulator's anchor
/// rows) beside a `sim serve` board; `rig measure` reads both traces on the one clock.
@Suite(
  "A rig with the emulated Uno", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct RigEmulatedTests {
  @Test("emulate --trace-host-time: every row and event carries host_s, and a tap on the Uno and a sim board lands on one instant")
  func emulatedBoardInARig() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("rig-emulated")
    defer { try? FileManager.default.removeItem(at: directory) }
    let unoTrace = directory.appendingPathComponent("uno.csv").path
    let simTrace = directory.appendingPathComponent("sim.csv").path
    let uno = try BackgroundCLI(["emulate", "--trace", unoTrace, "--trace-host-time"])
    defer { _ = uno.terminate() }
    let sim = try BackgroundCLI(["sim", "serve", "--drift-ppm", "150", "--trace", simTrace, "--trace-host-time"])
    defer { _ = sim.terminate() }
    let rig = directory.appendingPathComponent("rig.json").path
    try """
      { "schema": 1, "boards": [ { "name": "uno", "port": "\(uno.firstLine)", "board": "uno-drv2605l" },
                                 { "name": "sim", "port": "\(sim.firstLine)", "board": "sim-lra" } ],
        "actuators": [ { "name": "u", "board": "uno", "channel": 0 }, { "name": "s", "board": "sim", "channel": 0 } ] }
      """.write(toFile: rig, atomically: true, encoding: .utf8)
    let measure = try CLIRunner.run([
      "rig", "measure", rig, "--count", "20", "--interval", "0.25", "--json", "--trace", "uno=\(unoTrace)", "--trace", "sim=\(simTrace)",
    ])
    #expect(measure.status == 0, "\(measure.stdout)\(measure.stderr)")
    let figures = RigCommandTests.json(measure.stdout)
    print("rig with the emulated Uno: \(measure.stdout)")
    #expect(figures["missed"] as? Int == 0 && figures["taps"] as? Int == 20, "\(measure.stdout)")
    let worst = try #require(figures["skew_max_ms"] as? Double, "\(measure.stdout)")
    #expect(worst <= 1, "the Uno and the sim board \(worst) ms apart")
    let (status, _) = uno.terminate()
    #expect(status == 0)
    // Every row of both files carries the host column (the emulator's events too).
    for path in [unoTrace, RigEmulatedTests.eventsPath(unoTrace)] {
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      #expect(lines.first?.hasSuffix(",host_s") == true, "\(path): \(lines.first ?? "")")
      let columns = lines.first?.split(separator: ",", omittingEmptySubsequences: false).count ?? 0
      let short = lines.dropFirst().filter { $0.split(separator: ",", omittingEmptySubsequences: false).count != columns }
      #expect(lines.count > 1 && short.isEmpty, "\(path): rows without host_s: \(short.prefix(3))")
    }
  }

  static func eventsPath(_ path: String) -> String { String(path.dropLast(4)) + ".events.csv" }
}
