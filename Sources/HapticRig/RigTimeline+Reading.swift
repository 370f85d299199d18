import Foundation
import HapticAHAP

extension RigTimeline {
  /// Reads and checks the timeline at `path` against `rig` (actuator and group names).
  ///
  /// - Parameter knownPreset: whether a preset name exists (`preset:NAME` patterns).
  /// - Throws: ``RigFileError`` with every problem found, each naming its entry and its line.
  public static func load(_ path: String, rig: RigFile, knownPreset: (String) -> Bool) throws(RigFileError) -> RigTimeline {
    let (document, lines) = try EntryReader.document(at: path)
    var reader = EntryReader(lines: lines)
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let timeline = document.withRoot { reader.timeline($0, rig: rig, folder: folder, knownPreset: knownPreset) }
    guard reader.problems.isEmpty, var timeline else { throw RigFileError(file: path, problems: reader.problems) }
    timeline.path = path
    return timeline
  }
}

extension EntryReader {
  mutating func timeline(_ root: JSONValue, rig: RigFile, folder: String, knownPreset: (String) -> Bool) -> RigTimeline? {
    guard let members = object(root, path: "", known: ["schema", "name", "patterns", "cues"]) else { return nil }
    let schema = members["schema"].flatMap { integer($0, path: "schema") }
    if members["schema"] == nil { note("schema", "missing (this hapticctl reads schema 1)", at: root) }
    if let schema, schema != 1, let value = members["schema"] {
      note("schema", "version \(schema) is not supported (this hapticctl reads schema 1)", at: value)
    }
    if let name = members["name"] { _ = string(name, path: "name") }
    var patterns: [(name: String, source: RigTimeline.PatternSource)] = []
    if let value = members["patterns"] {
      if case .object(let object) = value.kind, object.count > 0 {
        for member in object {
          guard let text = string(member.value, path: "patterns.\(member.key)", expected: "a file or \"preset:NAME\"") else { continue }
          if text.hasPrefix("preset:") {
            let preset = String(text.dropFirst("preset:".count))
            if !knownPreset(preset) { note("patterns.\(member.key)", "no preset '\(preset)' (hapticctl presets lists them)", at: member.value) }
            patterns.append((member.key, .preset(preset)))
          } else if text.isEmpty {
            note("patterns.\(member.key)", "a pattern file (relative to the timeline's folder) or \"preset:NAME\"", at: member.value)
          } else {
            patterns.append((member.key, .file(text.hasPrefix("/") ? text : folder + "/" + text)))
          }
        }
      } else {
        note("patterns", "expected an object of named patterns, e.g. { \"tap\": \"tap.ahap\" }", at: value)
      }
    } else {
      note("patterns", "missing", at: root)
    }
    let names = Set(patterns.map(\.name))
    let cues = list(members["cues"], path: "cues", in: root) { reader, value, path in
      reader.cue(value, path: path, rig: rig, patterns: names)
    }
    guard let cues else { return nil }
    if cues.isEmpty || cues.count > RigTimeline.maximumCues, let value = members["cues"] {
      note("cues", "1–\(RigTimeline.maximumCues) cues", at: value)
    }
    var plays: [RigTimeline.Play] = []
    for (index, cue) in cues.enumerated() {
      plays += cue.map { play in
        var play = play
        play.cue = index
        return play
      }
    }
    if plays.count > RigTimeline.maximumPlays, let value = members["cues"] {
      note("cues", "\(plays.count) plays (cues × actuators); at most \(RigTimeline.maximumPlays)", at: value)
    }
    return RigTimeline(patterns: patterns, plays: plays.stableSortedByTime())
  }

  /// One cue, as its plays (cue index 0: the caller numbers them).
  private mutating func cue(_ value: JSONValue, path: String, rig: RigFile, patterns: Set<String>) -> [RigTimeline.Play]? {
    let known = ["at", "pattern", "actuators", "intensity", "spread", "along"]
    guard let members = object(value, path: path, known: known) else { return nil }
    let at = required(members, "at", in: value, path: path) { $0.number($1, path: $2) }
    let pattern = required(members, "pattern", in: value, path: path) { $0.string($1, path: $2) }
    let intensity = members["intensity"].map { number($0, path: "\(path).intensity") } ?? 1
    let spread = members["spread"].map { number($0, path: "\(path).spread") } ?? 0
    let along = members["along"].flatMap { string($0, path: "\(path).along") }
    func check(_ ok: Bool, _ key: String, _ message: String) {
      if !ok, let value = members[key] { note("\(path).\(key)", message, at: value) }
    }
    if let at { check(at >= 0 && at <= RigTimeline.maximumTime, "at", "seconds from the start, 0–86400") }
    if let pattern { check(patterns.contains(pattern), "pattern", "no pattern '\(pattern)' (patterns: \(patterns.sorted().joined(separator: ", ")))") }
    if let intensity { check((0...1).contains(intensity), "intensity", "must be 0…1") }
    if let spread { check(spread >= 0 && spread <= 60, "spread", "seconds between one actuator and the next, 0–60") }
    let axis = along.flatMap { ["x": 0, "y": 1, "z": 2][$0] }
    if along != nil && axis == nil { check(false, "along", "\"x\", \"y\" or \"z\": the position coordinate the spread follows") }
    guard let targets = actuators(members["actuators"], path: "\(path).actuators", in: value, rig: rig) else { return nil }
    var ordered = targets
    if let axis {
      let missing = targets.first { target in (rig.actuators.first { $0.name == target.name }?.position?.count ?? 0) <= axis }
      if let missing {
        check(false, "along", "actuator \(missing.name) has no position on \(along ?? "")")
        return nil
      }
      let coordinate = { (name: String) in rig.actuators.first { $0.name == name }?.position?[axis] ?? 0 }
      ordered = targets.enumerated().sorted { (coordinate($0.element.name), $0.offset) < (coordinate($1.element.name), $1.offset) }.map(\.element)
    }
    guard let at, let pattern, let intensity, let spread else { return nil }
    return ordered.enumerated().map { index, target in
      RigTimeline.Play(
        pattern: pattern, actuator: target.name, at: at + Double(index) * spread + target.delay, intensity: intensity * target.intensity, cue: 0)
    }
  }

  /// A cue's `actuators`: a name, or a list of names and `{ name, delay, intensity }` objects;
  /// groups expand to their actuators in the rig's order, each actuator once.
  private mutating func actuators(
    _ value: JSONValue?, path: String, in cue: JSONValue, rig: RigFile
  ) -> [(name: String, delay: Double, intensity: Double)]? {
    guard let value else {
      note(path, "missing", at: cue)
      return nil
    }
    var entries: [(value: JSONValue, path: String)] = []
    if case .array(let items) = value.kind {
      entries = items.enumerated().map { ($1, "\(path)[\($0)]") }
    } else {
      entries = [(value, path)]
    }
    var targets: [(name: String, delay: Double, intensity: Double)] = []
    var complete = !entries.isEmpty
    if entries.isEmpty { note(path, "name at least one actuator or group", at: value) }
    for (entry, entryPath) in entries {
      var name: String?
      var delay = 0.0
      var intensity = 1.0
      if case .object = entry.kind {
        guard let members = object(entry, path: entryPath, known: ["name", "delay", "intensity"]) else {
          complete = false
          continue
        }
        name = required(members, "name", in: entry, path: entryPath) { $0.string($1, path: $2) }
        if let value = members["delay"], let number = number(value, path: "\(entryPath).delay") {
          if number >= 0 && number <= 60 { delay = number } else { note("\(entryPath).delay", "seconds, 0–60", at: value) }
        }
        if let value = members["intensity"], let number = number(value, path: "\(entryPath).intensity") {
          if (0...1).contains(number) { intensity = number } else { note("\(entryPath).intensity", "must be 0…1", at: value) }
        }
      } else {
        name = string(entry, path: entryPath, expected: "an actuator or group name, or { \"name\", \"delay\", \"intensity\" }")
      }
      guard let name else {
        complete = false
        continue
      }
      do {
        for actuator in try rig.actuators(named: [name]) where !targets.contains(where: { $0.name == actuator.name }) {
          targets.append((actuator.name, delay, intensity))
        }
      } catch {
        note(entryPath, error.problems.first?.message ?? "\(error)", at: entry)
        complete = false
      }
    }
    return complete ? targets : nil
  }
}

extension Array where Element == RigTimeline.Play {
  /// Sorted by time; ties keep their order.
  func stableSortedByTime() -> [Element] {
    enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
  }
}
