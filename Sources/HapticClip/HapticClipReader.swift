public import HapticAHAP
import HapticCore

/// A clip read from a `.haptic` file, with the warnings reading it gave.
public struct HapticClipDocument: Sendable {
  /// The clip.
  public var clip: HapticClip
  /// What was ignored on the way (unknown fields, malformed metadata).
  public var warnings: [AHAPDiagnostic]

  /// Creates a document.
  public init(clip: HapticClip, warnings: [AHAPDiagnostic]) {
    self.clip = clip
    self.warnings = warnings
  }
}

/// Reads `.haptic` files (format version 1) with the AHAP reader's JSON parser and diagnostics:
/// every problem names the file, the JSON path (`signals.continuous.envelopes.amplitude[3].time`)
/// and line:column, as an error or a warning.
///
/// Errors, per Meta's published rules: no `version` or a major version other than 1, no
/// `signals.continuous.envelopes.amplitude` or an empty one, a time that is negative, not finite
/// or before the previous point's, an amplitude, frequency or emphasis value outside 0…1, an
/// emphasis amplitude below its breakpoint's, a time past ``maximumTime``. Warnings: unknown fields (newer minor versions add
/// some), malformed `metadata` entries (they do not affect what is played), and a frequency
/// envelope going on past the amplitude envelope (Meta's rule, broken by Lofelt's own files).
public struct HapticClipReader: Sendable {
  /// The latest breakpoint time accepted, seconds (24 h, the renderer's limit too): a few bytes
  /// of JSON must not stand for months of vibration (found by fuzzing: a 115-day clip made 177
  /// MB of Lofelt-style AHAP, one event per 30 s).
  public static let maximumTime = 86_400.0

  /// Files larger than this are refused unread (default 64 MiB, as for AHAP).
  public var maxFileSize: Int

  /// Creates a reader.
  public init(maxFileSize: Int = 64 << 20) {
    self.maxFileSize = maxFileSize
  }

  /// Reads the `.haptic` file at `path`.
  /// - Throws: ``AHAPError`` naming `path` with every error found.
  public func read(contentsOf path: String) throws(AHAPError) -> HapticClipDocument {
    let bytes: [UInt8]
    do {
      bytes = try AHAPReader.loadFile(path, limit: maxFileSize)
    } catch {
      throw AHAPError(file: path, errors: [error])
    }
    return try read(bytes, file: path)
  }

  /// Reads a `.haptic` document from memory; `file` names it in diagnostics.
  public func read(_ bytes: [UInt8], file: String? = nil) throws(AHAPError) -> HapticClipDocument {
    if bytes.count > maxFileSize {
      throw AHAPError(
        file: file,
        errors: [AHAPDiagnostic(.error, .fileTooLarge, path: "", message: "the file is \(bytes.count) bytes, over the \(maxFileSize)-byte limit; it was not read")])
    }
    let document: JSONDocument
    do {
      document = try JSONParser.parse(bytes, maxDepth: 64)
    } catch {
      let (line, column) = SourceLines(bytes).location(of: error.offset)
      throw AHAPError(
        file: file,
        errors: [AHAPDiagnostic(.error, .invalidPatternData, path: "", message: "not valid JSON: \(error.message)", line: line, column: column)])
    }
    let walker = ClipWalker(lines: SourceLines(bytes))
    let clip = document.withRoot { walker.clip(from: $0) }
    guard let clip, walker.errors.isEmpty else {
      throw AHAPError(file: file, errors: walker.errors, warnings: walker.warnings)
    }
    return HapticClipDocument(clip: clip, warnings: walker.warnings)
  }

  /// Reads `.haptic` text from a string (UTF-8).
  public func read(string: String, file: String? = nil) throws(AHAPError) -> HapticClipDocument {
    try read(Array(string.utf8), file: file)
  }
}
