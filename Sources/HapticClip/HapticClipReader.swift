public import HapticAHAP
import HapticCore

/// A clip read from a `.haptic` file, with the warnings reading it gave.
public struct HapticClipDocument: Sendable {
  /// The clip.
  public var clip: HapticClip
  /// What was ignored on the way (unknown fields, malformed metadata, an upgrade).
  public var warnings: [AHAPDiagnostic]
  /// The file's major version when it was upgraded to version 1 (0 for a `.vij`), else nil.
  public var upgradedFrom: Int?

  /// Creates a document.
  public init(clip: HapticClip, warnings: [AHAPDiagnostic], upgradedFrom: Int? = nil) {
    self.clip = clip
    self.warnings = warnings
    self.upgradedFrom = upgradedFrom
  }
}

/// Reads `.haptic` files (format version 1, and version 0 `.vij` files, upgraded) with the AHAP reader's JSON parser and diagnostics:
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

  /// Reads a `.haptic` document from memory; `file` names it in diagnostics. A v0 `.vij`
  /// document is checked by Lofelt's v0 rules and upgraded to version 1 (``HapticClipV0``).
  public func read(_ bytes: [UInt8], file: String? = nil) throws(AHAPError) -> HapticClipDocument {
    let document = try parse(bytes, file: file)
    let walker = ClipWalker(lines: SourceLines(bytes))
    let walked = document.withRoot { root -> (clip: HapticClip?, old: HapticClipV0?) in
      ClipWalker.isV0(root) ? (nil, walker.clipV0(from: root, validate: true)) : (walker.clip(from: root), nil)
    }
    if let clip = walked.clip, walker.errors.isEmpty { return HapticClipDocument(clip: clip, warnings: walker.warnings) }
    guard let old = walked.old, walker.errors.isEmpty else {
      throw AHAPError(file: file, errors: walker.errors, warnings: walker.warnings)
    }
    var (clip, dropped) = old.upgraded()
    var warnings = walker.warnings
    // Version 1 wants an emphasis at least as strong as its breakpoint; Lofelt's upgrade does
    // not check (v0 has no such rule), so a weaker one is raised to the breakpoint's amplitude.
    for index in clip.amplitude.indices {
      let level = clip.amplitude[index].amplitude
      guard let emphasis = clip.amplitude[index].emphasis, emphasis.amplitude < level else { continue }
      clip.amplitude[index].emphasis = HapticClip.Emphasis(amplitude: level, frequency: emphasis.frequency)
      warnings.append(
        AHAPDiagnostic(
          .warning, .invalidPatternData, path: "voices.transients",
          message: "the transient at \(clip.amplitude[index].time) s (amplitude \(emphasis.amplitude)) is weaker than the envelope there: raised to \(level), as version 1 requires"))
    }
    warnings.append(
      AHAPDiagnostic(.warning, .invalidPatternData, path: "", message: "a version 0 (.vij) clip: upgraded to version 1 as Lofelt's SDK does"))
    // The shape a version 1 file is warned of, so the written clip, read again, says nothing
    // new (a frequency envelope cannot pass the end: v0's rules keep both within the duration,
    // and the upgrade extends the amplitude envelope to it).
    if let message = ClipShape.lengthWarning(clip.amplitude) {
      warnings.append(AHAPDiagnostic(.warning, .invalidPatternData, path: "voices.envelopes[0]", message: message))
    }
    for transient in dropped {
      warnings.append(
        AHAPDiagnostic(
          .warning, .invalidPatternData, path: "voices.transients",
          message: "the transient at \(transient.time) s has no amplitude breakpoint at that time: dropped (Lofelt's upgrade drops it too)"))
    }
    return HapticClipDocument(clip: clip, warnings: warnings, upgradedFrom: 0)
  }

  /// Reads a v0 `.vij` document as it is, without upgrading it; with `validate` false only its
  /// structure is checked (Lofelt's upgrade test pairs start from files that break v0's rules).
  public func readV0(_ bytes: [UInt8], file: String? = nil, validate: Bool = true) throws(AHAPError) -> HapticClipV0 {
    let document = try parse(bytes, file: file)
    let walker = ClipWalker(lines: SourceLines(bytes))
    let clip = document.withRoot { walker.clipV0(from: $0, validate: validate) }
    guard let clip else { throw AHAPError(file: file, errors: walker.errors, warnings: walker.warnings) }
    return clip
  }

  private func parse(_ bytes: [UInt8], file: String?) throws(AHAPError) -> JSONDocument {
    if bytes.count > maxFileSize {
      throw AHAPError(
        file: file,
        errors: [AHAPDiagnostic(.error, .fileTooLarge, path: "", message: "the file is \(bytes.count) bytes, over the \(maxFileSize)-byte limit; it was not read")])
    }
    do {
      return try JSONParser.parse(bytes, maxDepth: 64)
    } catch {
      let (line, column) = SourceLines(bytes).location(of: error.offset)
      throw AHAPError(
        file: file,
        errors: [AHAPDiagnostic(.error, .invalidPatternData, path: "", message: "not valid JSON: \(error.message)", line: line, column: column)])
    }
  }

  /// Reads `.haptic` text from a string (UTF-8).
  public func read(string: String, file: String? = nil) throws(AHAPError) -> HapticClipDocument {
    try read(Array(string.utf8), file: file)
  }
}
