import Foundation
import HapticTestSupport
import Testing

/// Several channels from the command line (issue 16): a two-LRA board file, patterns addressed to
/// channels with `--channel`, the probe listing every channel.
@Suite(.serialized) struct ChannelCommandTests {
  /// One full-intensity tap (the repository's own examples, so a plain clone runs these tests).
  static let hit = CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap").path
  /// A 1.5 s continuous event changed in steps: the longer pattern of a pair.
  static let recharge = CLIRunner.packageRoot.appendingPathComponent("Examples/dynamic-steps.ahap").path

  /// A scratch boards folder with `sim-dual`: two LRAs, 170 Hz and 150 Hz.
  static func boards() throws -> URL {
    let folder = try CLIRunner.scratchFolder("channels")
    let board = """
      {"schema": 1, "id": "sim-dual", "name": "Simulated two-LRA board", "vendor": "test", "driver": "simulator",
       "usb": [], "link": {"baud": 115200}, "framePeriodMs": 1, "levels": {"bits": 8, "signed": true},
       "frequencyControlHz": [80, 300],
       "channels": [
         {"actuator": "lra", "f0Hz": 170, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5},
         {"actuator": "lra", "f0Hz": 150, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5}]}
      """
    try Data(board.utf8).write(to: folder.appendingPathComponent("sim-dual.json"))
    return folder
  }

  @Test("render and simulate --channel: the pattern on that channel only, the other silent")
  func renderOneChannel() throws {
    let folder = try Self.boards()
    defer { try? FileManager.default.removeItem(at: folder) }
    let common = ["--board", "sim-dual", "--boards-dir", folder.path, "--channel", "1"]
    let render = try CLIRunner.run(["render", Self.hit, "--format", "csv"] + common)
    #expect(render.status == 0, "\(render.stderr)")
    let rows = render.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    #expect(rows.contains { $0[1] == "1" && $0[2] != "0.000000" }, "channel 1 drives")
    #expect(rows.filter { $0[1] == "0" }.allSatisfy { $0[2] == "0.000000" }, "channel 0 stays silent")
    let simulate = try CLIRunner.run(["simulate", Self.hit] + common)
    #expect(simulate.status == 0 && simulate.stdout.contains(#"{"channel":0,"kind":"LRA","peak_g":0,"#), "\(simulate.stdout)")
    let missing = try CLIRunner.run(["render", Self.hit, "--board", "sim-dual", "--boards-dir", folder.path, "--channel", "2"])
    #expect(missing.status != 0 && missing.stderr.contains("sim-dual has no channel 2"), "\(missing.stderr)")
  }

  @Test("send --channel 0 A --channel 1 B: both play, in step; probe lists both channels")
  func sendTwoChannels() throws {
    let folder = try Self.boards()
    defer { try? FileManager.default.removeItem(at: folder) }
    let sim = try CLIRunner.run([
      "send", "--sim", "--board", "sim-dual", "--boards-dir", folder.path, "--channel", "0", Self.recharge, "--channel", "1", Self.hit,
      "--json",
    ])
    #expect(sim.status == 0, "\(sim.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(sim.stdout.utf8)) as? [String: Any])
    #expect((report["source"] as? String)?.hasPrefix("channel 0: ") == true)
    #expect(try #require(report["drive_duration_s"] as? Double) > 1.4, "the longer pattern played to its end")
    // Every onset on its channel within a frame of where it belongs, both started together.
    #expect(try #require(report["max_onset_error_ms"] as? Double) <= 1, "\(report)")
    // Over a served board: the probe lists both channels, and the same send plays.
    let server = try BackgroundCLI(["sim", "serve", "--board", "sim-dual", "--boards-dir", folder.path])
    defer { _ = server.terminate() }
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine, "--json"])
    let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    let channels = try #require(probed["channels"] as? [[String: Any]])
    #expect(channels.count == 2 && channels.map { $0["f0_hz"] as? Double } == [170, 150], "\(channels)")
    let served = try CLIRunner.run(["send", "--port", server.firstLine, "--channel", "0,1", Self.hit, "--json"])
    #expect(served.status == 0 && served.stdout.contains(#""underruns":0"#), "\(served.stdout)\(served.stderr)")
    // Usage errors: a channel list without its file, a channel the board does not have.
    let odd = try CLIRunner.run(["send", "--sim", "--channel", "0", Self.hit, "--channel", "1"])
    #expect(odd.status == 64 && odd.stderr.contains("--channel takes a channel list and a file"), "\(odd.stderr)")
    let absent = try CLIRunner.run(["send", "--sim", "--channel", "1", Self.hit])
    #expect(absent.status == 1 && absent.stderr.contains("sim-lra has no channel 1"), "\(absent.stderr)")
  }

  /// The built-in ERM + LRA board: listed, validated, rendered, simulated and characterized per
  /// channel, served (the probe lists both channels), and played on two channels.
  @Test("uno-hbridge: the ERM + LRA board through every simulated path")
  func hbridgeBoard() throws {
    let show = try CLIRunner.run(["boards", "show", "uno-hbridge"])
    #expect(show.status == 0 && show.stdout.contains("driver pwm-hbridge"), "\(show.stdout)\(show.stderr)")
    #expect(show.stdout.contains("channel 0: ERM") && show.stdout.contains("channel 1: LRA 170.0 Hz"))
    let validate = try CLIRunner.run(["boards", "validate", CLIRunner.packageRoot.appendingPathComponent("Boards/uno-hbridge.json").path])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    // Rendered per channel: the LRA follows sharpness across its band, the ERM has none.
    let lra = try CLIRunner.run(["render", Self.hit, "--board", "uno-hbridge", "--channel", "1"])
    #expect(lra.status == 0 && lra.stdout.contains(#""sharpness_band_hz":[147,211]"#), "\(lra.stdout)\(lra.stderr)")
    let erm = try CLIRunner.run(["render", Self.hit, "--board", "uno-hbridge", "--channel", "0"])
    #expect(erm.status == 0 && erm.stdout.contains(#""sharpness_band_hz":null"#), "\(erm.stdout)\(erm.stderr)")
    let simulate = try CLIRunner.run(["simulate", Self.hit, "--board", "uno-hbridge"])
    #expect(simulate.status == 0, "\(simulate.stderr)")
    #expect(simulate.stdout.contains(#"{"channel":0,"kind":"ERM","#) && simulate.stdout.contains(#"{"channel":1,"kind":"LRA","#))
    let characterize = try CLIRunner.run(["characterize", "--board", "uno-hbridge"])
    #expect(characterize.status == 0, "\(characterize.stderr)")
    #expect(characterize.stdout.contains("channel 0: ERM") && characterize.stdout.contains("channel 1: LRA, 170 Hz, sharpness band 147–211 Hz"))
    // Served: the probe lists both channels as the firmware announces them.
    let server = try BackgroundCLI(["sim", "serve", "--board", "uno-hbridge"])
    defer { _ = server.terminate() }
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine, "--json"])
    let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    let channels = try #require(probed["channels"] as? [[String: Any]])
    #expect(channels.map { $0["kind"] as? String } == ["ERM", "LRA"], "\(channels)")
    #expect(channels.last?["frequency_range_hz"] as? [Int] == [80, 300], "\(channels)")
    #expect((probed["features"] as? [String])?.contains("frequency control") == true, "\(probed)")
    let served = try CLIRunner.run(["send", "--port", server.firstLine, "--channel", "0", Self.recharge, "--channel", "1", Self.hit, "--json"])
    #expect(served.status == 0 && served.stdout.contains(#""underruns":0"#), "\(served.stdout)\(served.stderr)")
  }
}
