import Foundation
import HapticTestSupport
import Testing

/// Small things a new user met on the command line (issue 32 point 8): each test failed before
/// its fix.
@Suite struct CommandLineDetailsTests {
  @Test("A negative value is a value: --rate -1 is refused for what it is, not as a missing value")
  func negativeValueIsRead() throws {
    let run = try CLIRunner.run(["send", CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap").path, "--sim", "--rate", "-1"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--rate must be above 0"), "\(run.stderr)")
    #expect(!run.stderr.contains("Missing value"))
  }

  @Test("sim serve --drift-ppm -150 serves a board (it used to exit at once)")
  func negativeDriftServes() throws {
    let server = try BackgroundCLI(["sim", "serve", "--drift-ppm", "-150"])
    defer { _ = server.terminate() }
    #expect(server.firstLine.hasPrefix("/dev/pts/"), "\(server.firstLine)")
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine, "--json"])
    #expect(probe.status == 0, "\(probe.stderr)")
    // A probe's drift says how uncertain it is (issue 32 point 8).
    let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    let uncertainty = try #require(object["drift_uncertainty_ppm"] as? Double, "\(probe.stdout)")
    #expect(uncertainty > 0 && uncertainty < 5_000, "±\(uncertainty) ppm")
    let text = try CLIRunner.run(["probe", "--port", server.firstLine])
    #expect(text.stdout.contains(" ± ") && text.stdout.contains("ppm"), "\(text.stdout)")
  }

  @Test("An unknown subcommand with --help is a usage error naming it, not the root help and 0")
  func unknownSubcommandWithHelp() throws {
    let run = try CLIRunner.run(["rigs", "--help"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("unknown subcommand 'rigs'"), "\(run.stderr)")
    #expect(!run.stdout.contains("OVERVIEW"))
    let help = try CLIRunner.run(["help", "send"])
    #expect(help.status == 0 && help.stdout.contains("OVERVIEW"), "help SUBCOMMAND still works")
  }

  @Test("sim serve --help names every built-in board; render and simulate take .haptic too")
  func helpTexts() throws {
    let serve = try CLIRunner.run(["sim", "serve", "--help"])
    let text = serve.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for board in ["sim-lra", "sim-erm", "uno-drv2605l", "uno-hbridge"] {
      #expect(text.contains(board), "sim serve --help lists \(board)")
    }
    for command in ["render", "simulate"] {
      let help = try CLIRunner.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(help.contains("AHAP or .haptic"), "\(command) --help")
    }
  }

  @Test("render prints a file's warnings themselves, not only how many there are")
  func renderShowsWarnings() throws {
    let (folder, file) = try CLIRunner.scratchFile(
      "warn.ahap",
      #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1.5}]}}],"Extra":1}"#)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLIRunner.run(["render", file, "--board", "sim-lra", "--format", "stats"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("unknown key \"Extra\""), "\(run.stderr)")
    #expect(run.stderr.contains("clamped"), "\(run.stderr)")
  }

  @Test("emulate starts without simavr's 'unsupported check type 03' (the bootloader's hex has no start record)")
  func emulatorStartsQuietly() throws {
    try EmulatedBoardTests.requireBuilt()
    let emulator = try BackgroundCLI(["emulate"])
    #expect(emulator.firstLine.hasPrefix("/dev/pts/"), "\(emulator.firstLine)")
    usleep(300_000)
    let ended = emulator.terminate()
    #expect(!ended.stderr.contains("read_ihex_chunks") && !ended.stderr.contains("unsupported check type"), "\(ended.stderr)")
    #expect(ended.stderr.contains("emulated uno-drv2605l board on /dev/pts/"), "\(ended.stderr)")
  }

  /// Every key of a JSON value, nested ones included.
  static func keys(_ value: Any) -> [String] {
    if let object = value as? [String: Any] { return object.keys + object.values.flatMap { keys($0) } }
    if let array = value as? [Any] { return array.flatMap { keys($0) } }
    return []
  }

  @Test("One spelling (snake_case) in what probe and validate write; an ERM reports no f0 (issue 32 point 7)")
  func oneSpelling() throws {
    let server = try BackgroundCLI(["sim", "serve", "--board", "sim-erm"])
    defer { _ = server.terminate() }
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine, "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    let notSnake = Self.keys(object).filter { $0.range(of: "^[a-z0-9_]+$", options: .regularExpression) == nil }
    #expect(notSnake.isEmpty, "probe --json keys not in snake_case: \(notSnake)")
    let channel = try #require((object["channels"] as? [[String: Any]])?.first)
    #expect(channel["kind"] as? String == "ERM")
    #expect(channel["f0_hz"] is NSNull, "an ERM has no f0: \(channel)")
    let text = try CLIRunner.run(["probe", "--port", server.firstLine]).stdout
    let line = try #require(text.split(separator: "\n").first { $0.contains("channel 0:") })
    #expect(!line.contains("f0"), "\(line)")
    let validate = try CLIRunner.run(["validate", "--json", CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap").path])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any])
    #expect(Self.keys(report).allSatisfy { $0.range(of: "^[a-z0-9_]+$", options: .regularExpression) != nil }, "\(report)")
  }

  @Test("validate warns about an AudioCustom file it cannot find (it used to say ok, and send played silence)")
  func missingAudioFile() throws {
    let (folder, file) = try CLIRunner.scratchFile(
      "click.ahap", #"{"Pattern":[{"Event":{"Time":0.5,"EventType":"AudioCustom","EventWaveformPath":"missing.wav"}}]}"#)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLIRunner.run(["validate", file])
    #expect(run.status == 0, "it loads: \(run.stdout)")
    #expect(run.stdout.contains("1 warning") && run.stdout.contains("\"missing.wav\" was not found"), "\(run.stdout)")
    #expect(run.stdout.contains("plays silence"), "\(run.stdout)")
  }

  @Test("--strict: every warning fails the file (exit 1) in validate and render; without it the file loads")
  func strict() throws {
    let (folder, clip) = try CLIRunner.scratchFile(
      "one.haptic", #"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5}]}}}}"#)
    defer { try? FileManager.default.removeItem(at: folder) }
    let lenient = try CLIRunner.run(["validate", clip])
    #expect(lenient.status == 0 && lenient.stdout.contains("1 warning"), "\(lenient.stdout)")
    let strict = try CLIRunner.run(["validate", "--strict", clip])
    #expect(strict.status == 1, "\(strict.stdout)")
    #expect(strict.stdout.contains("FAILED") && strict.stdout.contains("(an error with --strict)"), "\(strict.stdout)")
    let render = try CLIRunner.run(["render", clip, "--board", "sim-lra", "--format", "stats", "--strict"])
    #expect(render.status == 1 && render.stderr.contains("--strict"), "\(render.stderr)")
    #expect(render.stdout.isEmpty, "nothing rendered")
  }
}
