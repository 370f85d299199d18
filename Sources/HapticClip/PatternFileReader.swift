public import HapticAHAP

/// Reads a pattern file of either format into one model: `.haptic` clips through
/// ``HapticClipReader`` and ``HapticClip/pattern()``, AHAP through ``AHAPReader``.
/// Diagnostics have the same form for both.
///
/// The format is ``format`` when set; otherwise the extension's (`.haptic` and `.vij` are
/// clips, `.ahap` is AHAP), otherwise the content's (``PatternFormat/sniff(_:)``).
public struct PatternFileReader: Sendable {
  /// AHAP settings (their file-size limit applies to clips too).
  public var options: AHAPReadOptions
  /// The format to read files as; nil: by extension, then by content.
  public var format: PatternFormat?

  /// Creates a reader.
  public init(options: AHAPReadOptions = AHAPReadOptions(), format: PatternFormat? = nil) {
    self.options = options
    self.format = format
  }

  /// Whether `path` names a `.haptic` clip (or an older `.vij` one) by its extension.
  public static func isClip(_ path: String) -> Bool {
    PatternFormat(extensionOf: path) == .haptic
  }

  /// Reads `path` in its format (see the type's documentation).
  /// - Throws: ``AHAPError`` naming `path`.
  public func read(contentsOf path: String) throws(AHAPError) -> AHAPDocument {
    Self.document(try load(contentsOf: path))
  }

  /// A file as read: an AHAP pattern, or a clip (kept as a clip: converters need it).
  public enum Loaded: Sendable {
    case pattern(AHAPDocument)
    case clip(HapticClipDocument)
  }

  /// Reads `path` without turning a clip into a pattern.
  /// - Throws: ``AHAPError`` naming `path`.
  public func load(contentsOf path: String) throws(AHAPError) -> Loaded {
    let bytes: [UInt8]
    do {
      bytes = try AHAPReader.loadFile(path, limit: options.maxFileSize)
    } catch {
      throw AHAPError(file: path, errors: [error])
    }
    return try load(bytes, file: path)
  }

  /// Reads a document's `bytes` without turning a clip into a pattern; `file` names it in
  /// diagnostics (and its extension, if any, gives the format when ``format`` is nil).
  /// - Throws: ``AHAPError`` naming `file`.
  public func load(_ bytes: [UInt8], file: String) throws(AHAPError) -> Loaded {
    switch format ?? PatternFormat(extensionOf: file) ?? PatternFormat.sniff(bytes) {
    case .ahap: return .pattern(try AHAPReader(options: options).read(bytes, file: file))
    case .haptic: return .clip(try HapticClipReader(maxFileSize: options.maxFileSize).read(bytes, file: file))
    }
  }

  /// Reads a document's `bytes` in its format (a clip as its pattern); see ``load(_:file:)``.
  /// - Throws: ``AHAPError`` naming `file`.
  public func read(_ bytes: [UInt8], file: String) throws(AHAPError) -> AHAPDocument {
    Self.document(try load(bytes, file: file))
  }

  /// A loaded file as a pattern document (a clip as its pattern, with the clip's warnings).
  private static func document(_ loaded: Loaded) -> AHAPDocument {
    switch loaded {
    case .pattern(let document): return document
    case .clip(let clip): return AHAPDocument(pattern: clip.clip.pattern(), warnings: clip.warnings)
    }
  }
}

/// The pattern file formats hapticctl reads.
public enum PatternFormat: String, Sendable, CaseIterable {
  /// Apple's AHAP.
  case ahap
  /// Meta Haptics Studio / Lofelt Studio clips (`.haptic`, and v0 `.vij`).
  case haptic

  /// The format a file's extension names (any case), or nil.
  public init?(extensionOf path: String) {
    let lowered = path.lowercased()
    if lowered.hasSuffix(".haptic") || lowered.hasSuffix(".vij") {
      self = .haptic
    } else if lowered.hasSuffix(".ahap") {
      self = .ahap
    } else {
      return nil
    }
  }

  /// The format a document's content shows: a clip's top-level `signals` or `voices` (its
  /// lower-case keys), else AHAP (whose reader then names what is wrong).
  public static func sniff(_ bytes: [UInt8]) -> PatternFormat {
    guard let document = try? JSONParser.parse(bytes, maxDepth: 64) else { return .ahap }
    return document.withRoot { root in
      guard case .object(let members) = root.kind else { return .ahap }
      return members.contains { $0.key == "signals" || $0.key == "voices" } ? .haptic : .ahap
    }
  }
}
