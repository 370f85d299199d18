public import HapticCore

/// One finding of the AHAP reader: an error (the file is rejected) or a warning (the file loads,
/// with the described repair applied).
public struct AHAPDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// Whether the finding rejects the file.
  public enum Severity: String, Sendable, Hashable {
    /// The file does not load.
    case error
    /// The file loads; a default, clamp or skip was applied.
    case warning
  }

  /// Error or warning.
  public var severity: Severity
  /// What kind of finding, with Apple's code where one fits.
  public var code: HapticErrorCode
  /// Where in the document, e.g. `Pattern[3].Event.Time`; empty for the whole file.
  public var path: String
  /// What was wrong and, for warnings, what was done about it.
  public var message: String
  /// 1-based line in the file, when known.
  public var line: Int?
  /// 1-based column (in characters; a byte-order mark is none) in the file, when known.
  public var column: Int?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ code: HapticErrorCode, path: String, message: String,
    line: Int? = nil, column: Int? = nil
  ) {
    self.severity = severity
    self.code = code
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `12:5: error: Pattern[3].Event.Time: ... [invalidEventTime -4822]`.
  public var description: String {
    var text = ""
    if let line, let column { text += "\(line):\(column): " }
    text += "\(severity.rawValue): "
    if !path.isEmpty { text += "\(path): " }
    text += message
    if let apple = code.appleValue {
      text += " [\(code.name) \(apple)]"
    } else {
      text += " [\(code.name)]"
    }
    return text
  }
}

/// The reason an AHAP file did not load: every error found, plus the warnings seen on the way.
public struct AHAPError: Error, Sendable, CustomStringConvertible {
  /// The file that failed (as given by the caller), or `nil` for in-memory data.
  public var file: String?
  /// The errors, entry by entry in file order (within an entry, in a fixed field order);
  /// never empty.
  public var errors: [AHAPDiagnostic]
  /// Warnings found before or beside the errors.
  public var warnings: [AHAPDiagnostic]

  /// Creates an error report.
  public init(file: String?, errors: [AHAPDiagnostic], warnings: [AHAPDiagnostic] = []) {
    self.file = file
    self.errors = errors
    self.warnings = warnings
  }

  /// The first error's code, the one a Core Haptics caller would have seen.
  public var code: HapticErrorCode { errors.first?.code ?? .invalidPatternData }

  /// One line per error, each prefixed with the file name.
  public var description: String {
    errors.map { diagnostic in
      guard let file else { return diagnostic.description }
      // `file:12:5: error: ...` with a position, `file: error: ...` without.
      return diagnostic.line == nil
        ? "\(file): \(diagnostic.description)" : "\(file):\(diagnostic.description)"
    }.joined(separator: "\n")
  }
}

/// A successfully read AHAP file: the pattern and the warnings its reading produced.
public struct AHAPDocument: Sendable {
  /// The pattern, with defaults, clamps and skips already applied.
  public var pattern: HapticPattern
  /// What the reader repaired or ignored, in document order.
  public var warnings: [AHAPDiagnostic]

  /// Creates a document.
  public init(pattern: HapticPattern, warnings: [AHAPDiagnostic]) {
    self.pattern = pattern
    self.warnings = warnings
  }
}
