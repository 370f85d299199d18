import Foundation
import HapticAudio
import Testing

@Suite("hapticctl sim serve and simulate", .serialized)
struct SimulatorCommandTests {
  static let transient = "Tests/HapticAHAPTests/Fixtures/good/transient.ahap"

  @Test("sim serve: probe through the real serial path on the printed pty and the link")
  func serveAndProbe() throws {
    let link = NSTemporaryDirectory() + "hapticctl-sim-\(getpid())"
    let server = try BackgroundCLI(["sim", "serve", "--board", "sim-lra", "--link", link, "--drift-ppm", "3000"])
    #expect(server.firstLine.hasPrefix("/dev/pts/"), "first line: \(server.firstLine)")
    let probe = try CLIRunner.run(["probe", "--port", link, "--json"])
    #expect(probe.status == 0, "\(probe.stdout)\(probe.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    #expect(object["supports_haptics"] as? Bool == true)
    #expect(object["board"] as? String == "sim-lra")
    #expect(object["firmware"] as? String == "hapticctl-sim 1.0.0")
    let drift = try #require(object["drift_ppm"] as? Double)
    // A large drift, so the probe's short estimate (≈1.5 s of samples, sub-ms jitter on a
    // loaded machine) tells it from zero.
    #expect(abs(drift - 3000) < 1500, "drift \(drift) ppm")
    let byPath = try CLIRunner.run(["probe", "--port", server.firstLine])
    #expect(byPath.status == 0 && byPath.stdout.contains("haptics: supported"))
    let (status, stderr) = server.terminate()
    #expect(status == 0, "\(stderr)")
    #expect(stderr.contains("simulator stopped"))
    #expect(!FileManager.default.fileExists(atPath: link), "the link is removed on exit")
  }

  @Test("sim serve --delay-ms delays both ways, as a network does: the probe's round trip is two one-way delays")
  func symmetricDelay() throws {
    let server = try BackgroundCLI(["sim", "serve", "--delay-ms", "5", "--jitter-ms", "1"])
    defer { _ = server.terminate() }
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine, "--json"])
    #expect(probe.status == 0, "\(probe.stdout)\(probe.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
    // The probe's round trip is its fastest: at least (5 − 1) ms each way. With the replies
    // alone delayed it was 5 ms and a little.
    let roundTrip = try #require(object["round_trip_ms"] as? Double)
    #expect(roundTrip >= 8 && roundTrip < 14, "round trip \(roundTrip) ms")
    let bad = try CLIRunner.run(["sim", "serve", "--jitter-ms", "-1"])
    #expect(bad.status == 64 && bad.stderr.contains("--jitter-ms must be 0–10000"), "\(bad.stderr)")
  }

  @Test("sim serve --no-actuator: the probe gates haptics off")
  func noActuator() throws {
    let server = try BackgroundCLI(["sim", "serve", "--no-actuator"])
    let probe = try CLIRunner.run(["probe", "--port", server.firstLine])
    #expect(probe.status == 1)
    #expect(probe.stdout.contains("NOT supported: no actuator reported"), "\(probe.stdout)")
    #expect(server.terminate().status == 0)
  }

  @Test("sim serve refuses bad options")
  func badOptions() throws {
    let result = try CLIRunner.run(["sim", "serve", "--drop", "2"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--drop and --corrupt are probabilities"))
    let board = try CLIRunner.run(["sim", "serve", "--board", "nope"])
    #expect(board.status == 64 && board.stderr.contains("unknown board 'nope'"))
    // A board that cannot start (its link's folder is missing) leaves no trace files behind.
    let folder = try CLIRunner.scratchFolder("serve-trace")
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = folder.appendingPathComponent("board.csv").path
    let failed = try CLIRunner.run(["sim", "serve", "--trace", trace, "--link", folder.appendingPathComponent("missing/link").path])
    #expect(failed.status != 0, "\(failed.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "trace files left by a failed start")
  }

  @Test("simulate --format summary reports a crisp, felt transient on sim-lra")
  func summary() throws {
    let result = try CLIRunner.run(["simulate", Self.transient, "--board", "sim-lra"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let channels = try #require(object["channels"] as? [[String: Any]])
    let channel = try #require(channels.first)
    #expect(try #require(channel["peak_g"] as? Double) > 0.1)
    #expect(channel["rise_ms"] is Double && channel["stop_ms"] is Double)
    #expect(try #require(channel["stop_ms"] as? Double) <= 12)
    #expect(channel["rms_g"] is Double && object["simulated_s"] is Double && object["drive_duration_s"] is Double)
  }

  @Test("simulate csv, wav and svg outputs")
  func formats() throws {
    let csv = try CLIRunner.run(["simulate", Self.transient, "--board", "sim-erm", "--format", "csv"])
    #expect(csv.status == 0)
    let lines = csv.stdout.split(separator: "\n")
    #expect(lines.first == "time_s,channel,drive,accel_g")
    #expect(lines.count > 100)
    let directory = NSTemporaryDirectory() + "hapticctl-simulate-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let wav = directory + "/out.wav"
    let result = try CLIRunner.run(["simulate", Self.transient, "--board", "sim-lra", "--format", "wav", "-o", wav])
    #expect(result.status == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: wav))
    #expect(bytes.prefix(4) == Data("RIFF".utf8) && bytes.count > 44)
    // Sample rate 16 kHz, one channel.
    #expect(bytes[22] == 1 && bytes[24] == 0x80 && bytes[25] == 0x3E)
    let svg = try CLIRunner.run(["simulate", Self.transient, "--board", "uno-drv2605l", "--format", "svg"])
    #expect(svg.status == 0 && svg.stdout.hasPrefix("<svg") && svg.stdout.contains("accel"))
  }

  @Test("simulate --audio: AudioCustom and AudioContinuous mixed; a missing file is a warning")
  func audio() throws {
    let directory = NSTemporaryDirectory() + "hapticctl-audio-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A 0.1 s 8-bit mono clip at 8 kHz, full-scale square wave.
    var clip = Data("RIFF".utf8) + le32(36 + 800) + Data("WAVEfmt ".utf8) + le32(16)
    clip += le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
    clip += Data("data".utf8) + le32(800) + Data((0..<800).map { $0 % 16 < 8 ? UInt8(255) : UInt8(0) })
    try clip.write(to: URL(fileURLWithPath: directory + "/clip.wav"))
    // And a CAF clip (the tutorials' format): 50 ms of a full-scale 1 kHz tone at 48 kHz.
    let tone = (0..<2_400).map { Float(sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
    try AudioFile.write(AudioClip(sampleRate: 48_000, samples: tone), to: directory + "/clip.caf", format: .caf)
    let ahap = """
      {"Pattern": [
        {"Event": {"Time": 0, "EventType": "HapticTransient"}},
        {"Event": {"Time": 0.05, "EventType": "AudioCustom", "EventWaveformPath": "clip.wav"}},
        {"Event": {"Time": 0.2, "EventType": "AudioContinuous", "EventDuration": 0.1,
                   "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.8}]}},
        {"Event": {"Time": 0.3, "EventType": "AudioCustom", "EventWaveformPath": "missing.wav"}},
        {"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventWaveformPath": "clip.caf"}}
      ]}
      """
    try ahap.write(toFile: directory + "/p.ahap", atomically: true, encoding: .utf8)
    let out = directory + "/audio.wav"
    let result = try CLIRunner.run([
      "simulate", directory + "/p.ahap", "--board", "sim-lra", "-o", directory + "/s.json", "--audio", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("missing.wav"), "\(result.stderr)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    let samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    // 48 kHz: the clip sounds from 0.05 s, silence before it, the tone from 0.2 s.
    #expect(samples[0..<2_000].allSatisfy { $0 == 0 })
    #expect(samples[2_500..<7_000].contains { abs(Int($0)) > 20_000 })
    #expect(samples[10_000..<14_000].contains { abs(Int($0)) > 2_000 })
    // The CAF clip from 0.5 s, silence just before it.
    #expect(samples[22_000..<23_900].allSatisfy { $0 == 0 })
    #expect(samples[24_000..<26_400].contains { abs(Int($0)) > 20_000 })
  }

  private func le32(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
  private func le16(_ value: Int) -> Data { withUnsafeBytes(of: UInt16(value).littleEndian) { Data($0) } }
}
