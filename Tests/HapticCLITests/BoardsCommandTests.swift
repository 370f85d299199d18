import Foundation
import Testing

@Suite("hapticctl boards, flash and ports")
struct BoardsCommandTests {
  @Test("boards list and show")
  func listAndShow() throws {
    let list = try CLIRunner.run(["boards", "list", "--json"])
    #expect(list.status == 0)
    let ids = try list.stdout.split(separator: "\n").map { line in
      (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
    }
    #expect(ids == ["sim-lra", "sim-erm", "uno-drv2605l", "uno-hbridge"])
    let show = try CLIRunner.run(["boards", "show", "uno-drv2605l"])
    #expect(show.status == 0 && show.stdout.contains("driver drv2605l-rtp") && show.stdout.contains("USB 2341:0043"))
    let unknown = try CLIRunner.run(["boards", "show", "nope"])
    #expect(unknown.status == 64 && unknown.stderr.contains("unknown board 'nope'"))
  }

  @Test("boards validate names the field; a user board folder adds boards")
  func validateAndUserBoards() throws {
    let folder = NSTemporaryDirectory() + "hapticctl-cli-boards-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let good = try String(contentsOfFile: CLIRunner.packageRoot.path + "/Boards/sim-erm.json", encoding: .utf8)
    try good.replacingOccurrences(of: "\"sim-erm\"", with: "\"bench-erm\"").write(
      toFile: folder + "/bench.json", atomically: true, encoding: .utf8)
    try good.replacingOccurrences(of: "\"ratedVoltage\": 3.0", with: "\"ratedVoltage\": -3").write(
      toFile: folder + "/../hapticctl-bad-\(getpid()).json", atomically: true, encoding: .utf8)
    let bad = folder + "/../hapticctl-bad-\(getpid()).json"
    defer { try? FileManager.default.removeItem(atPath: bad) }
    let result = try CLIRunner.run(["boards", "validate", folder + "/bench.json", bad])
    #expect(result.status == 1)
    #expect(result.stdout.contains("bench.json: ok (bench-erm, simulator, 1 channel)"))
    #expect(result.stderr.contains("channels[0].ratedVoltage: must be in (0, 100] V"), "\(result.stderr)")
    let render = try CLIRunner.run([
      "render", "Tests/HapticAHAPTests/Fixtures/good/transient.ahap", "--board", "bench-erm", "--boards-dir", folder,
    ])
    #expect(render.status == 0 && render.stdout.contains("\"board\":\"bench-erm\""), "\(render.stderr)")
  }

  @Test("flash --dry-run prints the exact command; missing tools and ports are clear errors")
  func flash() throws {
    let dry = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", "/dev/ttyACM9", "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("avrdude -p atmega328p -c arduino -x attempts=4 -P /dev/ttyACM9 -b 115200 -D -U flash:w:"))
    #expect(dry.stdout.contains("Boards/uno-drv2605l/firmware/build/hapticctl-uno.hex:i"))
    let hex = NSTemporaryDirectory() + "fw-\(getpid()).hex"
    try ":0100000000FF\n:00000001FF\n".write(toFile: hex, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: hex) }
    let custom = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", "/dev/ttyACM9", "--firmware", hex, "--dry-run"])
    #expect(custom.stdout == "avrdude -p atmega328p -c arduino -x attempts=4 -P /dev/ttyACM9 -b 115200 -D -U flash:w:\(hex):i\n")
    let noPort = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", "/dev/ttyACM9", "--firmware", hex])
    #expect(noPort.status == 1 && noPort.stderr.contains("no such port /dev/ttyACM9"), "\(noPort.stderr)")
    let simulator = try CLIRunner.run(["flash", "--board", "sim-lra", "--port", "/dev/null", "--dry-run"])
    #expect(simulator.status == 1 && simulator.stderr.contains("board sim-lra has no flash method"))
  }

  @Test("ports runs and reports the boards key")
  func ports() throws {
    let result = try CLIRunner.run(["ports", "--json"])
    #expect(result.status == 0)
    let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
    #expect(list != nil)
    for port in list ?? [] { #expect(port["boards"] is [Any]) }
  }
}
