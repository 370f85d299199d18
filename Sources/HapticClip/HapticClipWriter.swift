import HapticAHAP

/// Writes a clip as a `.haptic` file (format version 1, Meta's layout), deterministically: the
/// same clip always gives the same bytes — keys in a fixed order, numbers in their shortest
/// form that reads back to the same value, two-space indentation and `"key": value` as Meta
/// Haptics Studio writes them, a final newline.
///
/// The frequency envelope is left out when empty; `metadata` keeps all six fields (Meta Haptics
/// Studio writes them all).
public struct HapticClipWriter: Sendable {
  /// Creates a writer.
  public init() {}

  /// The `.haptic` text of `clip`.
  public func bytes(_ clip: HapticClip) -> [UInt8] {
    var out = JSONTextBuilder(indentWidth: 2, spaceBeforeColon: false)
    out.openObject()
    out.key("version")
    out.openObject()
    for (key, value) in [("major", clip.version.major), ("minor", clip.version.minor), ("patch", clip.version.patch)] {
      out.key(key)
      out.number(Double(value))
    }
    out.closeObject()
    out.key("metadata")
    out.openObject()
    let metadata = clip.metadata
    for (key, value) in [("editor", metadata.editor), ("author", metadata.author), ("source", metadata.source), ("project", metadata.project)] {
      out.key(key)
      out.string(value)
    }
    out.key("tags")
    out.openArray()
    for tag in metadata.tags { out.string(tag) }
    out.closeArray()
    out.key("description")
    out.string(metadata.description)
    out.closeObject()
    out.key("signals")
    out.openObject()
    out.key("continuous")
    out.openObject()
    out.key("envelopes")
    out.openObject()
    out.key("amplitude")
    out.openArray()
    for point in clip.amplitude {
      Self.object([("time", point.time), ("amplitude", point.amplitude)], to: &out) { out in
        guard let emphasis = point.emphasis else { return }
        out.key("emphasis")
        Self.object([("amplitude", emphasis.amplitude), ("frequency", emphasis.frequency)], to: &out)
      }
    }
    out.closeArray()
    if !clip.frequency.isEmpty {
      out.key("frequency")
      out.openArray()
      for point in clip.frequency { Self.object([("time", point.time), ("frequency", point.frequency)], to: &out) }
      out.closeArray()
    }
    out.closeObject()
    out.closeObject()
    out.closeObject()
    out.closeObject()
    return out.finish()
  }

  /// An object of numbers, then whatever `more` adds before it closes.
  private static func object(
    _ members: [(String, Double)], to out: inout JSONTextBuilder, more: (inout JSONTextBuilder) -> Void = { _ in }
  ) {
    out.openObject()
    for (key, value) in members {
      out.key(key)
      out.number(value)
    }
    more(&out)
    out.closeObject()
  }
}
