import Foundation
import HTTPTypes
import Testing

/// ROM effects through `hapticctl serve` on the emulated Uno + DRV2605L (its real firmware on
/// simavr): `send --rom N --server URL` makes the driver play effect N (the emulator's trace shows
/// the chip's GO with that effect), and a board without ROM effects or an effect out of range
/// is refused naming why.
@Suite(
  "hapticctl serve: ROM effects on the emulated DRV2605L", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct ServeROMTests {
  @Test("send --rom 12 --server: the served DRV2605L plays effect 12; refusals name the field")
  func romThroughServer() async throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("serve-rom")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = directory.appendingPathComponent("trace.csv")
    let emulate = try EmulatorProcess(arguments: [CLIRunner.executable.path, "emulate", "--trace", trace.path])
    defer { emulate.stop() }
    let server = try BackgroundCLI(["serve", "--port", emulate.ptyPath, "--listen", "127.0.0.1:0"])
    defer { _ = server.terminate() }
    #expect(server.firstLine.hasPrefix("listening on "), "\(server.firstLine)")
    let base = String(server.firstLine.dropFirst("listening on ".count))

    let played = try CLIRunner.run(["send", "--rom", "12", "--library", "1", "--server", base, "--json"])
    #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])
    #expect(answer["board"] as? String == "uno-drv2605l" && answer["rom"] as? Int == 12, "\(answer)")

    let (outOfRange, error) = try await ServeCommandTests.request(base, "/v1/boards/uno-drv2605l/rom?effect=124", method: .post)
    #expect(outOfRange == 400 && error.contains(#""field":"effect""#), "\(outOfRange) \(error)")
    let (noEffect, missing) = try await ServeCommandTests.request(base, "/v1/boards/uno-drv2605l/rom?library=2", method: .post)
    #expect(noEffect == 400 && missing.contains(#""field":"effect""#), "\(noEffect) \(missing)")

    // The effect plays out (well under a second), then everything ends.
    try await Task.sleep(for: .milliseconds(500))
    #expect(server.terminate().status == 0)
    let stopped = emulate.stop()
    #expect(stopped.status == 0, "hapticctl emulate exit \(stopped.status)\n\(stopped.stderr)")
    let events = try String(contentsOf: EmulatorTrace.eventsURL(for: trace), encoding: .utf8)
    let rom = events.split(separator: "\n").filter { $0.contains(",rom_effect,") }
    #expect(rom.count == 1 && rom.first?.hasSuffix(",rom_effect,0,effect=12") == true, "\(events)")
  }

  @Test("A board without ROM effects (sim-lra) is refused by name, over HTTP and through send --server")
  func refusedWithoutROM() async throws {
    let server = try BackgroundCLI(["serve", "--sim", "sim-lra", "--listen", "127.0.0.1:0"])
    defer { _ = server.terminate() }
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let (status, error) = try await ServeCommandTests.request(base, "/v1/boards/sim-lra/rom?effect=1", method: .post)
    #expect(status == 400 && error.contains(#""field":"board""#) && error.contains("no driver ROM effects"), "\(status) \(error)")
    let sent = try CLIRunner.run(["send", "--rom", "1", "--server", base])
    #expect(sent.status == 1 && sent.stderr.contains("has no driver ROM effects"), "\(sent.stderr)")
  }
}
