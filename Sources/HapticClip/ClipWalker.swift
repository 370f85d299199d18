import HapticAHAP
import HapticCore

/// Walks a parsed `.haptic` document into a ``HapticClip``, collecting diagnostics.
final class ClipWalker {
  private let lines: SourceLines
  private(set) var errors: [AHAPDiagnostic] = []
  private(set) var warnings: [AHAPDiagnostic] = []
  /// Where each list and point of a v0 file stands (for the v0 rules' errors).
  var v0Offsets = V0Offsets()

  init(lines: SourceLines) {
    self.lines = lines
  }

  private func note(_ severity: AHAPDiagnostic.Severity, _ path: String, _ message: String, at offset: Int?) {
    let location = offset.map { lines.location(of: $0) }
    let diagnostic = AHAPDiagnostic(
      severity, .invalidPatternData, path: path, message: message, line: location?.line, column: location?.column)
    if severity == .error { errors.append(diagnostic) } else { warnings.append(diagnostic) }
  }

  func error(_ path: String, _ message: String, at value: JSONValue?) {
    note(.error, path, message, at: value?.offset)
  }

  func error(_ path: String, _ message: String, offset: Int?) {
    note(.error, path, message, at: offset)
  }

  func warning(_ path: String, _ message: String, at offset: Int) {
    note(.warning, path, message, at: offset)
  }

  /// The members of an object; an error (and nil) for anything else.
  func members(_ value: JSONValue, _ path: String) -> JSONObject? {
    if case .object(let members) = value.kind { return members }
    error(path, "expected an object, found \(value.brief)", at: value)
    return nil
  }

  /// The clip, or nil when a required part is missing or wrong (errors say which).
  func clip(from root: JSONValue) -> HapticClip? {
    guard let members = members(root, "") else { return nil }
    var version: HapticClip.Version?
    var metadata = HapticClip.Metadata()
    var envelopes: (amplitude: [HapticClip.AmplitudeBreakpoint], frequency: [HapticClip.FrequencyBreakpoint])?
    var sawVersion = false
    var sawSignals = false
    for member in members {
      switch member.key {
      case "version":
        sawVersion = true
        version = self.version(member.value)
      case "metadata": metadata = self.metadata(member.value)
      case "signals":
        sawSignals = true
        envelopes = signals(member.value)
      default: warning(member.key, "unknown field: ignored", at: member.keyOffset)
      }
    }
    if !sawVersion { error("version", "missing (a .haptic file starts with its format version)", at: root) }
    if !sawSignals { error("signals", "missing: a .haptic file needs signals.continuous.envelopes.amplitude", at: root) }
    guard let version, let envelopes, errors.isEmpty else { return nil }
    return HapticClip(version: version, metadata: metadata, amplitude: envelopes.amplitude, frequency: envelopes.frequency)
  }

  private func version(_ value: JSONValue) -> HapticClip.Version? {
    guard let members = members(value, "version") else { return nil }
    var parts: [String: Int] = [:]
    for member in members {
      let path = "version.\(member.key)"
      guard ["major", "minor", "patch"].contains(member.key) else {
        warning(path, "unknown field: ignored", at: member.keyOffset)
        continue
      }
      guard case .number(let number) = member.value.kind, number >= 0, number == number.rounded(), number < 1e9 else {
        error(path, "expected a whole number ≥ 0, found \(member.value.brief)", at: member.value)
        continue
      }
      parts[member.key] = Int(number)
    }
    guard let major = parts["major"] else {
      error("version.major", "missing", at: value)
      return nil
    }
    guard major == 1 else {
      error("version.major", "version \(major) is not supported (this hapticctl reads .haptic versions 0 and 1)", at: value)
      return nil
    }
    return HapticClip.Version(major: major, minor: parts["minor"] ?? 0, patch: parts["patch"] ?? 0)
  }

  private func metadata(_ value: JSONValue) -> HapticClip.Metadata {
    var metadata = HapticClip.Metadata()
    guard case .object(let members) = value.kind else {
      warning("metadata", "expected an object, found \(value.brief): ignored", at: value.offset)
      return metadata
    }
    for member in members {
      let path = "metadata.\(member.key)"
      if member.key == "tags" {
        guard case .array(let items) = member.value.kind else {
          warning(path, "expected an array of strings: ignored", at: member.value.offset)
          continue
        }
        for (index, item) in items.enumerated() {
          if case .string(let tag) = item.kind {
            metadata.tags.append(tag)
          } else {
            warning("\(path)[\(index)]", "expected a string, found \(item.brief): ignored", at: item.offset)
          }
        }
        continue
      }
      guard ["editor", "author", "source", "project", "description"].contains(member.key) else {
        warning(path, "unknown field: ignored", at: member.keyOffset)
        continue
      }
      guard case .string(let text) = member.value.kind else {
        warning(path, "expected a string, found \(member.value.brief): ignored", at: member.value.offset)
        continue
      }
      switch member.key {
      case "editor": metadata.editor = text
      case "author": metadata.author = text
      case "source": metadata.source = text
      case "project": metadata.project = text
      default: metadata.description = text
      }
    }
    return metadata
  }
}
