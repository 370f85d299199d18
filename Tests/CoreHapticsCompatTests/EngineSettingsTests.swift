import Foundation
import HapticAudio
import Testing

@testable import CoreHapticsCompat

/// `CHHapticEngine()` finds its board in a settings file when the environment does not say
/// (docs/semantics.md §16): an app needs no environment variables.
@Suite struct EngineSettingsTests {
  /// A fresh folder with `engine.json` holding `json`; returns the folder.
  static func folder(with json: String) throws -> String {
    let folder = NSTemporaryDirectory() + "hapticctl-settings-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder + "/.config/hapticctl", withIntermediateDirectories: true)
    try json.write(toFile: folder + "/.config/hapticctl/engine.json", atomically: true, encoding: .utf8)
    return folder
  }

  @Test("The file's board and audio file are used; the environment wins; relative paths are the file's")
  func fileAndEnvironment() throws {
    let home = try Self.folder(with: #"{"board": "sim-erm", "audio_out": "out.wav"}"#)
    defer { try? FileManager.default.removeItem(atPath: home) }
    let fromHome = try CHHapticEngine(environment: ["HOME": home])
    #expect(fromHome.engine.capabilities.boardID == "sim-erm")
    #expect((fromHome.audioOutput as? AudioFileSink)?.path == home + "/.config/hapticctl/out.wav")

    let named = try CHHapticEngine(environment: ["HAPTICCTL_CONFIG": home + "/.config/hapticctl/engine.json", "HAPTICCTL_BOARD": "sim-lra"])
    #expect(named.engine.capabilities.boardID == "sim-lra", "the environment wins")
    #expect(named.audioOutput is AudioFileSink, "the file's other entries still count")

    let off = try Self.folder(with: #"{"audio": "off", "boards_path": ["boards", "/nowhere"]}"#)
    defer { try? FileManager.default.removeItem(atPath: off) }
    let quiet = try CHHapticEngine(environment: ["HOME": off])
    #expect(quiet.audioOutput == nil)
    #expect(quiet.engine.capabilities.boardID == "sim-lra")
  }

  @Test("A bad settings file is refused naming the file and the entry", arguments: [
    (#"{"port": 7}"#, "'port' must be a string"),
    (#"{"prot": "/dev/ttyACM0"}"#, "unknown key 'prot'"),
    (#"{"audio": "loud"}"#, "'audio' is \"loud\""),
    (#"["port"]"#, "not a JSON object"),
    (#"{"port": "/dev/ttyACM0""#, "not a JSON object"),
    (#"{"boards_path": [1]}"#, "'boards_path' must be a string or an array of strings"),
    (#"{"board": "nope"}"#, "unknown board 'nope'"),
  ])
  func badFile(json: String, problem: String) throws {
    let home = try Self.folder(with: json)
    defer { try? FileManager.default.removeItem(atPath: home) }
    do {
      _ = try CHHapticEngine(environment: ["HOME": home])
      Issue.record("\(json) was accepted")
    } catch {
      #expect(error.code == .invalidEngineParameter)
      #expect(error.message.contains(problem), "\(error.message)")
      if problem != "unknown board 'nope'" { #expect(error.message.contains(home + "/.config/hapticctl/engine.json")) }
    }
  }

  @Test("HAPTICCTL_CONFIG naming a missing file is an error, not the default board")
  func missingNamedFile() {
    #expect(throws: CHHapticError(.invalidEngineParameter, "settings file /nowhere/engine.json (HAPTICCTL_CONFIG): no such file")) {
      _ = try CHHapticEngine(environment: ["HAPTICCTL_CONFIG": "/nowhere/engine.json"])
    }
  }
}
