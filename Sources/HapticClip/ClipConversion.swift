import HapticAHAP

/// A pattern converted to a `.haptic` clip (``HapticClip/converting(_:tolerance:)``), with what
/// the clip could not carry as it was.
public struct ClipConversion: Sendable {
  /// One thing the conversion changed, with the moment it concerns (when there is one).
  public struct Note: Sendable, Hashable, CustomStringConvertible {
    /// How the change reaches what is felt.
    public enum Kind: String, Sendable, Hashable {
      /// Played differently from the clip than from the pattern (audio, overlapping events mixed).
      case lost
      /// Carried in another form, played the same here: envelope shapes and dynamic
      /// parameters baked into the envelopes (an editor sees breakpoints, not the parameter).
      case rendered
      /// Not played in either form (metadata the format has no field for).
      case dropped
    }

    public var kind: Kind
    /// The pattern time the note concerns (or from which), seconds.
    public var time: Double?
    /// Until when, for a change over a stretch of time, seconds.
    public var end: Double?
    public var message: String

    /// Creates a note.
    public init(_ kind: Kind, time: Double? = nil, until end: Double? = nil, _ message: String) {
      self.kind = kind
      self.time = time
      self.end = end
      self.message = message
    }

    /// `lost at 1.25 s: …` or `lost from 0.3 s to 0.5 s: …`.
    public var description: String {
      let when: String
      switch (time, end) {
      case (let time?, let end?): when = " from \(AHAPNumberFormat.string(time)) s to \(AHAPNumberFormat.string(end)) s"
      case (let time?, nil): when = " at \(AHAPNumberFormat.string(time)) s"
      default: when = ""
      }
      return "\(kind.rawValue)\(when): \(message)"
    }
  }

  /// The clip.
  public var clip: HapticClip
  /// What changed, in time order within each kind (lost first).
  public var notes: [Note]

  /// Creates a conversion.
  public init(clip: HapticClip, notes: [Note]) {
    self.clip = clip
    self.notes = notes
  }

  /// Whether the clip plays as the pattern does (nothing lost; baked shapes play the same).
  public var playsTheSame: Bool { !notes.contains { $0.kind == .lost } }
}
