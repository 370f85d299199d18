/// A step change of a dynamic parameter at a time (AHAP `Parameter` entry,
/// Core Haptics' `CHHapticDynamicParameter`).
///
/// The value applies from ``time`` to every active and future event of the matching kind until a
/// later-starting `Parameter` or curve on the same ID takes over (docs/semantics.md).
public struct DynamicParameter: Sendable, Hashable {
  /// The control this sets.
  public var id: DynamicParameterID
  /// The control value, within ``DynamicParameterID/range``.
  public var value: Double
  /// When the value takes effect, in seconds from the pattern start.
  public var time: Double

  /// Creates a dynamic parameter change.
  public init(_ id: DynamicParameterID, value: Double, time: Double) {
    self.id = id
    self.value = value
    self.time = time
  }
}

/// A free-form `Metadata` entry of an AHAP file (Project, Created, Description, ...).
public struct MetadataEntry: Sendable, Hashable {
  /// The key as written in the file.
  public var key: String
  /// The string value.
  public var value: String

  /// Creates a metadata entry.
  public init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }
}
