public import HapticAHAP

/// Reads a pattern file of either format into one model: `.haptic` clips (by their extension,
/// any case) through ``HapticClipReader`` and ``HapticClip/pattern()``, everything else as AHAP.
/// Diagnostics have the same form for both.
public struct PatternFileReader: Sendable {
  /// AHAP settings (their file-size limit applies to clips too).
  public var options: AHAPReadOptions

  /// Creates a reader.
  public init(options: AHAPReadOptions = AHAPReadOptions()) {
    self.options = options
  }

  /// Whether `path` names a `.haptic` clip (or an older `.vij` one).
  public static func isClip(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".haptic") || lowered.hasSuffix(".vij")
  }

  /// Reads `path` as its extension says.
  /// - Throws: ``AHAPError`` naming `path`.
  public func read(contentsOf path: String) throws(AHAPError) -> AHAPDocument {
    guard Self.isClip(path) else { return try AHAPReader(options: options).read(contentsOf: path) }
    let clip = try HapticClipReader(maxFileSize: options.maxFileSize).read(contentsOf: path)
    return AHAPDocument(pattern: clip.clip.pattern(), warnings: clip.warnings)
  }
}
