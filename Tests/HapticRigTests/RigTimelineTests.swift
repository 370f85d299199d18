import Foundation
import HapticCore
import HapticRig
import Testing

/// Rig timelines (issue 30): cues as plays per actuator, waves along a coordinate, and every
/// problem named with its entry and line.
@Suite("Rig timelines")
struct RigTimelineTests {
  static let rig = RigFile(
    boards: [.init(name: "left", port: "/dev/a"), .init(name: "right", port: "/dev/b")],
    actuators: [
      .init(name: "l1", board: "left", channel: 0, groups: ["row"], position: [0.3, 0]),
      .init(name: "l2", board: "left", channel: 1, groups: ["row"], position: [0.1, 0]),
      .init(name: "r1", board: "right", channel: 0, groups: ["row"], position: [0.2, 0]),
      .init(name: "r2", board: "right", channel: 1),
    ])

  /// The timeline `text`, written to a scratch file, read against ``rig``.
  static func load(_ text: String) throws(RigFileError) -> RigTimeline {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).json").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try RigTimeline.load(path, rig: rig, knownPreset: { $0 == "success" })
  }

  @Test("A wave along x, per-actuator delay and intensity, groups expanded once, plays in time order")
  func plays() throws {
    let timeline = try Self.load(
      """
      { "schema": 1,
        "patterns": { "tap": "taps/tap.ahap", "ok": "preset:success" },
        "cues": [
          { "at": 1, "pattern": "ok", "intensity": 0.5, "actuators": [ "r2", { "name": "row", "delay": 0.01, "intensity": 0.4 } ] },
          { "at": 0, "pattern": "tap", "actuators": "row", "spread": 0.1, "along": "x" }
        ] }
      """)
    #expect(timeline.patterns.map(\.name) == ["tap", "ok"])
    #expect(timeline.patterns[1].source == .preset("success"))
    guard case .file(let file) = timeline.patterns[0].source else { Issue.record("not a file"); return }
    #expect(file.hasSuffix("/taps/tap.ahap") && file.hasPrefix("/"), "resolved against the timeline's folder: \(file)")
    let summary = timeline.plays.map { "\($0.pattern) \($0.actuator) \($0.at) \($0.intensity) #\($0.cue)" }
    // The wave follows x (l2 0.1, r1 0.2, l1 0.3), not the file's order; the second cue's r2 plays
    // at the cue's intensity, the row's actuators at 0.5 × 0.4 and 10 ms later.
    #expect(summary == [
      "tap l2 0.0 1.0 #1", "tap r1 0.1 1.0 #1", "tap l1 0.2 1.0 #1",
      "ok r2 1.0 0.5 #0", "ok l1 1.01 0.2 #0", "ok l2 1.01 0.2 #0", "ok r1 1.01 0.2 #0",
    ])
  }

  @Test("Bad timelines: unknown patterns, actuators and presets, ranges, a wave along a coordinate some actuator lacks")
  func problems() {
    func problems(_ text: String) -> [String] {
      do {
        _ = try Self.load(text)
        return []
      } catch {
        return error.problems.map(\.description)
      }
    }
    let found = problems(
      """
      { "schema": 1, "patterns": { "a": "preset:nope", "b": "" },
        "cues": [
          { "at": -1, "pattern": "c", "actuators": "back", "intensity": 2 },
          { "at": 0, "pattern": "a", "actuators": ["row", "r2"], "spread": 0.1, "along": "y" },
          { "at": 0, "pattern": "a", "actuators": [], "along": "w" }
        ] }
      """)
    #expect(found == [
      "line 1, column 35: patterns.a: no preset 'nope' (hapticctl presets lists them)",
      "line 1, column 55: patterns.b: a pattern file (relative to the timeline's folder) or \"preset:NAME\"",
      "line 3, column 13: cues[0].at: seconds from the start, 0–86400",
      "line 3, column 28: cues[0].pattern: no pattern 'c' (patterns: a)",
      "line 3, column 67: cues[0].intensity: must be 0…1",
      "line 3, column 46: cues[0].actuators: no actuator or group named 'back' (actuators: l1, l2, r1, r2; groups: row)",
      "line 4, column 84: cues[1].along: actuator r2 has no position on y",
      "line 5, column 58: cues[2].along: \"x\", \"y\" or \"z\": the position coordinate the spread follows",
      "line 5, column 45: cues[2].actuators: name at least one actuator or group",
    ])
    #expect(problems(#"{ "schema": 1, "patterns": {}, "cues": [] }"#) == [
      "line 1, column 28: patterns: expected an object of named patterns, e.g. { \"tap\": \"tap.ahap\" }",
      "line 1, column 40: cues: 1–10000 cues",
    ])
  }

  @Test("A scaled pattern starts at the factor and scales the pattern's own intensity controls")
  func scaling() {
    var pattern = HapticPattern(events: [HapticEvent(.hapticTransient, time: 0, parameters: [])])
    pattern.add(DynamicParameter(.hapticIntensityControl, value: 0.8, time: 0.5))
    pattern.add(DynamicParameter(.hapticSharpnessControl, value: 0.3, time: 0.5))
    pattern.add(ParameterCurve(.hapticIntensityControl, time: 1, controlPoints: [.init(time: 0, value: 1), .init(time: 1, value: 0.2)]))
    let scaled = pattern.scalingIntensity(by: 0.5)
    #expect(scaled.events == pattern.events)
    #expect(scaled.parameters.map { "\($0.id) \($0.value) \($0.time)" } == [
      "\(DynamicParameterID.hapticIntensityControl) 0.5 0.0", "\(DynamicParameterID.hapticIntensityControl) 0.4 0.5",
      "\(DynamicParameterID.hapticSharpnessControl) 0.3 0.5",
    ])
    #expect(scaled.curves[0].controlPoints.map(\.value) == [0.5, 0.1])
    #expect(pattern.scalingIntensity(by: 1) == pattern)
  }
}
