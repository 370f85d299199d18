import HapticCore

/// Walks a parsed JSON tree into a ``HapticPattern``, collecting diagnostics with paths and
/// source positions. One walker reads one document.
final class AHAPWalker {
  let options: AHAPReadOptions
  private let bytes: [UInt8]
  private lazy var lines = SourceLines(bytes)
  private var listedErrors: [AHAPDiagnostic] = []
  /// Every error found so far, listed or not; entries compare it before and after reading.
  private(set) var errorCount = 0
  /// The errors found, with a closing note when more than `maxErrors` were found.
  var errors: [AHAPDiagnostic] {
    guard suppressedErrors > 0 else { return listedErrors }
    return listedErrors + [
      AHAPDiagnostic(
        .error, listedErrors.last?.code ?? .invalidPatternData, path: "",
        message: "\(suppressedErrors) more error(s) not listed")
    ]
  }
  private(set) var warnings: [AHAPDiagnostic] = []
  private var suppressedErrors = 0
  /// Curves whose first control point sits at the curve's own Time: candidates for files
  /// written with absolute control-point times (path, curve time, last point time).
  var absoluteCandidates: [(path: String, time: Double, lastPoint: Double)] = []

  init(bytes: [UInt8], options: AHAPReadOptions) {
    self.bytes = bytes
    self.options = options
  }

  // MARK: Diagnostics

  func error(_ code: HapticErrorCode, _ path: @autoclosure () -> String, at offset: Int?, _ message: String) {
    errorCount += 1
    guard listedErrors.count < max(1, options.maxErrors) else {
      suppressedErrors += 1
      return
    }
    listedErrors.append(diagnostic(.error, code, path(), offset, message))
  }

  func warn(_ code: HapticErrorCode, _ path: @autoclosure () -> String, at offset: Int?, _ message: String) {
    warnings.append(diagnostic(.warning, code, path(), offset, message))
  }

  private func diagnostic(
    _ severity: AHAPDiagnostic.Severity, _ code: HapticErrorCode, _ path: String, _ offset: Int?,
    _ message: String
  ) -> AHAPDiagnostic {
    var line: Int?
    var column: Int?
    if let offset {
      (line, column) = lines.location(of: offset)
    }
    return AHAPDiagnostic(severity, code, path: path, message: message, line: line, column: column)
  }

  // MARK: Objects

  /// The members of an object by key, the last of duplicates winning (with a warning), `null`
  /// values dropped (a `null` counts as absent), unknown keys warned about.
  ///
  /// Objects in AHAP have a handful of keys, so `known` is a short list scanned linearly and
  /// paths are only rendered when a diagnostic needs one.
  func members(
    of object: JSONObject, path: () -> String, known: [AHAPKey], context: String
  ) -> Fields {
    for index in object.indices {
      let key = object.ahapKey(at: index)
      guard let key, known.contains(key) else {
        let member = object[index]
        warn(
          .unknownKey, Self.join(path(), member.key), at: member.keyOffset,
          "unknown key \"\(member.key)\" in \(context)\(Suggestion.hint(for: member.key, among: known.map(\.name))); ignored")
        continue
      }
      if (0..<index).contains(where: { object.ahapKey(at: $0) == key }) {
        warn(
          .duplicateKey, Self.join(path(), key.name), at: object[index].keyOffset,
          "\"\(key.name)\" is given twice; the last one is used")
      }
    }
    return Fields(object, known: known)
  }

  private static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  // MARK: Typed values

  /// A finite number, or an error with `code` when the value has another type.
  func number(_ value: JSONValue, _ path: @autoclosure () -> String, code: HapticErrorCode) -> Double? {
    if case .number(let n) = value.kind { return n }
    error(code, path(), at: value.offset, "expected a number, found \(value.typeDescription) (\(value.brief))")
    return nil
  }

  /// A time: a finite number ≥ 0.
  func time(_ value: JSONValue, _ path: @autoclosure () -> String, code: HapticErrorCode) -> Double? {
    guard let t = number(value, path(), code: code) else { return nil }
    guard t >= 0 else {
      error(code, path(), at: value.offset, "negative time \(AHAPNumberFormat.string(t)) s (times must be ≥ 0)")
      return nil
    }
    return t
  }

  /// A string, or an error with `code`.
  func string(_ value: JSONValue, _ path: @autoclosure () -> String, code: HapticErrorCode) -> String? {
    if case .string(let s) = value.kind { return s }
    error(code, path(), at: value.offset, "expected a string, found \(value.typeDescription) (\(value.brief))")
    return nil
  }

  /// A boolean; 0 and 1 are accepted as false and true.
  func bool(_ value: JSONValue, _ path: @autoclosure () -> String, code: HapticErrorCode) -> Bool? {
    switch value.kind {
    case .bool(let b): return b
    case .number(let n) where n == 0 || n == 1: return n == 1
    default:
      error(code, path(), at: value.offset, "expected true or false, found \(value.typeDescription) (\(value.brief))")
      return nil
    }
  }

  /// Clamps `value` into `range`, warning when it had to.
  func clamped(
    _ value: Double, to range: ClosedRange<Double>, _ path: @autoclosure () -> String, at offset: Int, name: String
  ) -> Double {
    if range.contains(value) { return value }
    let result = min(max(value, range.lowerBound), range.upperBound)
    warn(
      .valueClamped, path(), at: offset,
      "\(name) \(AHAPNumberFormat.string(value)) is outside \(AHAPNumberFormat.string(range.lowerBound))…\(AHAPNumberFormat.string(range.upperBound)); clamped to \(AHAPNumberFormat.string(result))"
    )
    return result
  }

  // MARK: Document

  func pattern(from root: JSONValue) -> HapticPattern {
    guard case .object(let top) = root.kind else {
      error(
        .invalidPatternDictionary, "", at: root.offset,
        "the top level must be an object with a \"Pattern\" array, found \(root.typeDescription)")
      return HapticPattern()
    }
    let fields = members(of: top, path: { "" }, known: [.version, .metadata, .pattern], context: "the top level")
    var version = 1.0
    if let value = fields[.version] {
      if case .number(let n) = value.kind {
        version = n
      } else {
        warn(.defaultApplied, "Version", at: value.offset, "Version should be a number, found \(value.brief); using 1")
      }
    }
    let metadata = fields[.metadata].map(self.metadata) ?? []
    guard let patternValue = fields[.pattern] else {
      error(.invalidPatternDictionary, "Pattern", at: root.offset, "the required \"Pattern\" array is missing")
      return HapticPattern(version: version, metadata: metadata)
    }
    guard case .array(let entries) = patternValue.kind else {
      error(
        .invalidPatternDictionary, "Pattern", at: patternValue.offset,
        "\"Pattern\" must be an array of entries, found \(patternValue.typeDescription)")
      return HapticPattern(version: version, metadata: metadata)
    }
    var events: [HapticEvent] = []
    var parameters: [DynamicParameter] = []
    var curves: [ParameterCurve] = []
    for (index, entry) in entries.enumerated() {
      readEntry(entry, path: { "Pattern[\(index)]" }, events: &events, parameters: &parameters, curves: &curves)
    }
    if entries.isEmpty {
      warn(.emptyPattern, "Pattern", at: patternValue.offset, "the pattern has no entries; it plays nothing")
    }
    warnIfTimesLookAbsolute(events: events)
    return HapticPattern(
      version: version, metadata: metadata, events: events, parameters: parameters, curves: curves)
  }

  /// Warns when curves read as relative overshoot the last event although read as absolute
  /// they would end within it: the signature of a Lofelt/Meta export.
  private func warnIfTimesLookAbsolute(events: [HapticEvent]) {
    let eventsEnd = events.reduce(0.0) { max($0, $1.logicalEnd) }
    let tolerance = 1e-6
    let suspicious = absoluteCandidates.filter {
      $0.time + $0.lastPoint > eventsEnd + tolerance && $0.lastPoint <= eventsEnd + tolerance
    }
    guard let first = suspicious.first else { return }
    warn(
      .curveConvention, first.path, at: nil,
      "\(suspicious.count) curve(s) start their control points at the curve's own Time and, read relative to it (Apple's rule), run past the last event (\(AHAPNumberFormat.string(eventsEnd)) s); the file looks written with absolute control-point times (Lofelt/Meta exports): read it with the absolute convention (--absolute-curve-times)"
    )
  }

  private func metadata(_ value: JSONValue) -> [MetadataEntry] {
    guard case .object(let members) = value.kind else {
      warn(.ignoredField, "Metadata", at: value.offset, "Metadata should be an object, found \(value.typeDescription); ignored")
      return []
    }
    var result: [MetadataEntry] = []
    for member in members {
      switch member.value.kind {
      case .string(let s):
        result.append(MetadataEntry(member.key, s))
      case .null:
        continue
      default:
        warn(
          .ignoredField, "Metadata.\(member.key)", at: member.value.offset,
          "metadata values should be strings, found \(member.value.typeDescription); ignored")
      }
    }
    return result
  }

  private func readEntry(
    _ entry: JSONValue, path: () -> String, events: inout [HapticEvent],
    parameters: inout [DynamicParameter], curves: inout [ParameterCurve]
  ) {
    guard case .object(let object) = entry.kind else {
      error(
        .invalidPatternDictionary, path(), at: entry.offset,
        "each pattern entry must be an object holding an Event, Parameter or ParameterCurve, found \(entry.typeDescription)")
      return
    }
    let fields = members(
      of: object, path: path, known: [.event, .parameter, .parameterCurve], context: "a pattern entry")
    if fields.isEmpty {
      warn(.unknownKey, path(), at: entry.offset, "the entry has no Event, Parameter or ParameterCurve; skipped")
      return
    }
    if fields.count > 1 {
      warn(
        .combinedEntry, path(), at: entry.offset,
        "the entry holds \(fields.keys.map(\.name).joined(separator: " and ")); each is read as its own entry")
    }
    // Read in a fixed order so diagnostics are deterministic.
    if let value = fields[.event], let event = readEvent(value, path: { "\(path()).Event" }) {
      events.append(event)
    }
    if let value = fields[.parameter], let parameter = readParameter(value, path: { "\(path()).Parameter" }) {
      parameters.append(parameter)
    }
    if let value = fields[.parameterCurve], let curve = readCurve(value, path: { "\(path()).ParameterCurve" }) {
      curves.append(curve)
    }
  }
}
