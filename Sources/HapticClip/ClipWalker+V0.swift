import HapticAHAP

/// The older `.vij` layout (format 0.2): `metadata`, `voices.envelopes`, `voices.transients`.
extension ClipWalker {
  /// Whether a document is a v0 clip: a `version` with major 0, or no `version` and `voices`.
  static func isV0(_ root: JSONValue) -> Bool {
    guard case .object(let members) = root.kind else { return false }
    if let version = members.first(where: { $0.key == "version" })?.value {
      guard case .object(let parts) = version.kind,
        let major = parts.first(where: { $0.key == "major" })?.value, case .number(let number) = major.kind
      else { return false }
      return number == 0
    }
    return members.contains { $0.key == "voices" }
  }

  /// The v0 clip, or nil when its structure is wrong (errors say where). With `validate`, the
  /// v0 rules (``HapticClipV0/problems``) are errors too, each at its point in the file.
  func clipV0(from root: JSONValue, validate: Bool) -> HapticClipV0? {
    guard let members = members(root, "") else { return nil }
    var clip = HapticClipV0(duration: 0, envelopes: [])
    var sawVoices = false
    for member in members {
      switch member.key {
      case "version": break  // major 0, checked by isV0
      case "metadata": v0Metadata(member.value, into: &clip)
      case "variation": break  // DSP settings of the analysis; nothing to play
      case "voices":
        sawVoices = true
        voices(member.value, into: &clip)
      default: warning(member.key, "unknown field: ignored", at: member.keyOffset)
      }
    }
    if !sawVoices { error("voices", "missing: a v0 .vij file needs voices.envelopes", at: root) }
    guard errors.isEmpty else { return nil }
    if validate {
      for problem in clip.problems { error(problem.path, problem.message, offset: v0Offsets.offset(of: problem.path)) }
      guard errors.isEmpty else { return nil }
    }
    return clip
  }

  private func v0Metadata(_ value: JSONValue, into clip: inout HapticClipV0) {
    guard case .object(let members) = value.kind else {
      warning("metadata", "expected an object, found \(value.brief): ignored", at: value.offset)
      return
    }
    for member in members {
      let path = "metadata.\(member.key)"
      switch member.key {
      case "editor":
        if case .string(let text) = member.value.kind { clip.editor = text } else {
          warning(path, "expected a string, found \(member.value.brief): ignored", at: member.value.offset)
        }
      case "duration":
        if let duration = number(member.value, path, range: 0...HapticClipReader.maximumTime) { clip.duration = duration }
      case "format": break  // "additive": how Studio Desktop analysed the audio
      default: warning(path, "unknown field: ignored", at: member.keyOffset)
      }
    }
  }

  private func voices(_ value: JSONValue, into clip: inout HapticClipV0) {
    guard let members = members(value, "voices") else { return }
    var sawEnvelopes = false
    var sawTransients = false
    v0Offsets.record("voices", value.offset)
    for member in members {
      let path = "voices.\(member.key)"
      switch member.key {
      case "envelopes":
        sawEnvelopes = true
        clip.envelopes = lists(member.value, path)
      case "transients":
        sawTransients = true
        clip.transients = lists(member.value, path)
      case "bands":
        if case .array(let items) = member.value.kind, items.isEmpty { continue }
        warning(path, "frequency bands are not played: ignored", at: member.keyOffset)
      default: warning(path, "unknown field: ignored", at: member.keyOffset)
      }
    }
    if !sawEnvelopes { error("voices.envelopes", "missing", at: value) }
    if !sawTransients { error("voices.transients", "missing (an empty list when there are none)", at: value) }
  }

  /// An array of arrays of `{time, amplitude}` points.
  private func lists(_ value: JSONValue, _ path: String) -> [[HapticClipV0.Breakpoint]] {
    guard case .array(let lists) = value.kind else {
      error(path, "expected an array of breakpoint lists, found \(value.brief)", at: value)
      return []
    }
    v0Offsets.record(path, value.offset)
    return lists.enumerated().map { list, items in
      let here = "\(path)[\(list)]"
      v0Offsets.record(here, items.offset)
      guard case .array(let points) = items.kind else {
        error(here, "expected an array of breakpoints, found \(items.brief)", at: items)
        return []
      }
      return points.enumerated().compactMap { index, item in
        let at = "\(here)[\(index)]"
        v0Offsets.record(at, item.offset)
        guard let members = members(item, at) else { return nil }
        var time: Double?
        var amplitude: Double?
        for member in members {
          switch member.key {
          case "time": time = number(member.value, "\(at).time", range: -Double.infinity...Double.infinity)
          case "amplitude": amplitude = number(member.value, "\(at).amplitude", range: -Double.infinity...Double.infinity)
          default: warning("\(at).\(member.key)", "unknown field: ignored", at: member.keyOffset)
          }
        }
        if time == nil, !members.contains(where: { $0.key == "time" }) { error("\(at).time", "missing", at: item) }
        if amplitude == nil, !members.contains(where: { $0.key == "amplitude" }) { error("\(at).amplitude", "missing", at: item) }
        guard let time, let amplitude else { return nil }
        if time > HapticClipReader.maximumTime || time < 0 {
          error("\(at).time", "\(time) s is out of range (0…86400 s, 24 h)", at: item)
        }
        return HapticClipV0.Breakpoint(time: time, amplitude: amplitude)
      }
    }
  }
}

/// Where each v0 list and point stands in the file, by JSON path (for the v0 rules' errors).
struct V0Offsets {
  private var offsets: [String: Int] = [:]

  mutating func record(_ path: String, _ offset: Int) { offsets[path] = offset }

  /// The offset of `path`'s point or list (a field's path falls back to its object's).
  func offset(of path: String) -> Int? {
    var key = path
    while !key.isEmpty {
      if let offset = offsets[key] { return offset }
      guard let cut = key.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
      key = String(key[..<cut])
    }
    return nil
  }
}
