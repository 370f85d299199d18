import Foundation
import HapticAHAP
import HapticClip
import HapticCore

/// The outcome of loading one file, in the shapes `validate` prints.
struct ValidationReport {
  let file: String
  let document: AHAPDocument?
  let errors: [AHAPDiagnostic]
  let warnings: [AHAPDiagnostic]

  init(file: String, reader: PatternFileReader, strict: Bool = false) {
    self.file = file
    do {
      let document = try reader.read(contentsOf: file)
      let found = document.warnings + Self.audioFileWarnings(document.pattern, file: file)
      // --strict: every warning fails the file (Apple's and Meta's tools refuse these).
      self.document = strict && !found.isEmpty ? nil : document
      errors = strict ? AHAPReadingOptions.asErrors(found) : []
      warnings = strict ? [] : found
    } catch {
      document = nil
      errors = error.errors
      warnings = error.warnings
    }
  }

  var ok: Bool { errors.isEmpty }

  /// A warning for every `AudioCustom` event whose audio file cannot be found (or leaves the
  /// pattern's folder): the file loads, but the event plays silence (`send` says so too, when
  /// it plays).
  static func audioFileWarnings(_ pattern: HapticPattern, file: String) -> [AHAPDiagnostic] {
    var seen: Set<String> = []
    var warnings: [AHAPDiagnostic] = []
    for event in pattern.events where event.type == .audioCustom {
      guard let path = event.waveformPath, seen.insert(path).inserted else { continue }
      do {
        _ = try WaveformPath.resolve(path, relativeTo: file)
      } catch {
        warnings.append(
          AHAPDiagnostic(
            .warning, error.code, path: "EventWaveformPath", message: "\(error.message); the AudioCustom event at \(event.time) s plays silence"))
      }
    }
    return warnings
  }

  /// `file: ok (...)` or `file: FAILED (...)`, then one indented line per finding.
  func text() -> String {
    var lines: [String] = []
    let counts = [
      errors.isEmpty ? nil : plural(errors.count, "error"),
      warnings.isEmpty ? nil : plural(warnings.count, "warning"),
    ].compactMap { $0 }.joined(separator: ", ")
    if let pattern = document?.pattern {
      let summary =
        "\(plural(pattern.events.count, "event")), \(plural(pattern.parameters.count, "parameter")), "
        + "\(plural(pattern.curves.count, "curve")), pattern duration \(formatSeconds(pattern.duration))"
      lines.append("\(file): ok (\(summary))" + (counts.isEmpty ? "" : ", \(counts)"))
    } else {
      lines.append("\(file): FAILED, \(counts)")
    }
    for diagnostic in errors + warnings {
      lines.append("  \(file):\(diagnostic.line == nil ? " " : "")\(diagnostic)")
    }
    return lines.joined(separator: "\n")
  }

  /// One line of JSON with sorted keys.
  func jsonLine() throws -> String {
    let pattern = document?.pattern
    let object = JSONReport(
      file: file, ok: ok,
      warnings: warnings.map(JSONDiagnostic.init), errors: errors.map(JSONDiagnostic.init),
      events: pattern?.events.count, parameters: pattern?.parameters.count,
      curves: pattern?.curves.count, pattern_duration_s: pattern?.duration)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(object), as: UTF8.self)
  }

  private func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  private func formatSeconds(_ seconds: Double) -> String {
    String(format: "%.3f s", locale: Locale(identifier: "en_US_POSIX"), seconds)
  }
}

/// The JSON shape of one file's report.
private struct JSONReport: Encodable {
  let file: String
  let ok: Bool
  let warnings: [JSONDiagnostic]
  let errors: [JSONDiagnostic]
  let events: Int?
  let parameters: Int?
  let curves: Int?
  /// Apple's `CHHapticPattern.duration` (docs/semantics.md §5).
  let pattern_duration_s: Double?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(file, forKey: .file)
    try container.encode(ok, forKey: .ok)
    try container.encode(warnings, forKey: .warnings)
    try container.encode(errors, forKey: .errors)
    // Counts are null (not absent) when the file failed to load.
    try container.encode(events, forKey: .events)
    try container.encode(parameters, forKey: .parameters)
    try container.encode(curves, forKey: .curves)
    try container.encode(pattern_duration_s, forKey: .pattern_duration_s)
  }

  private enum CodingKeys: String, CodingKey {
    case file, ok, warnings, errors, events, parameters, curves, pattern_duration_s
  }
}

/// The JSON shape of one diagnostic.
private struct JSONDiagnostic: Encodable {
  let code: String
  let appleCode: Int?
  let severity: String
  let path: String
  let message: String
  let line: Int?
  let column: Int?

  init(_ diagnostic: AHAPDiagnostic) {
    code = diagnostic.code.name
    appleCode = diagnostic.code.appleValue
    severity = diagnostic.severity.rawValue
    path = diagnostic.path
    message = diagnostic.message
    line = diagnostic.line
    column = diagnostic.column
  }

  /// Keys in snake_case, as every JSON the project writes (issue 32 point 7).
  private enum CodingKeys: String, CodingKey {
    case code, severity, path, message, line, column
    case appleCode = "apple_code"
  }
}
