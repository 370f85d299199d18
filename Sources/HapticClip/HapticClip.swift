/// A Meta Haptics Studio / Lofelt Studio clip (a `.haptic` file, format version 1): an amplitude
/// envelope whose breakpoints may carry an emphasis (a short, sharp accent), and an optional
/// frequency envelope, both in seconds from the clip's start.
///
/// Values are as the file gives them, 0…1; ``pattern()`` maps them onto Core Haptics' model
/// (docs/semantics.md §17).
public struct HapticClip: Sendable, Hashable {
  /// The format version (`version`); this reader takes major version 1.
  public struct Version: Sendable, Hashable {
    public var major: Int
    public var minor: Int
    public var patch: Int

    /// Creates a version.
    public init(major: Int, minor: Int, patch: Int) {
      self.major = major
      self.minor = minor
      self.patch = patch
    }
  }

  /// The free-form `metadata` object (every field optional; missing ones are empty).
  public struct Metadata: Sendable, Hashable {
    public var editor = ""
    public var author = ""
    public var source = ""
    public var project = ""
    public var tags: [String] = []
    public var description = ""

    /// Empty metadata.
    public init() {}
  }

  /// An accent on an amplitude breakpoint: its strength (at least the breakpoint's amplitude)
  /// and its sharpness, both 0…1.
  public struct Emphasis: Sendable, Hashable {
    public var amplitude: Double
    public var frequency: Double

    /// Creates an emphasis.
    public init(amplitude: Double, frequency: Double) {
      self.amplitude = amplitude
      self.frequency = frequency
    }
  }

  /// One point of the amplitude envelope (linear between points).
  public struct AmplitudeBreakpoint: Sendable, Hashable {
    public var time: Double
    public var amplitude: Double
    public var emphasis: Emphasis?

    /// Creates a breakpoint.
    public init(time: Double, amplitude: Double, emphasis: Emphasis? = nil) {
      self.time = time
      self.amplitude = amplitude
      self.emphasis = emphasis
    }
  }

  /// One point of the frequency envelope (linear between points; 0 lowest, 1 highest).
  public struct FrequencyBreakpoint: Sendable, Hashable {
    public var time: Double
    public var frequency: Double

    /// Creates a breakpoint.
    public init(time: Double, frequency: Double) {
      self.time = time
      self.frequency = frequency
    }
  }

  public var version: Version
  public var metadata: Metadata
  /// The amplitude envelope: at least one point, times non-decreasing.
  public var amplitude: [AmplitudeBreakpoint]
  /// The frequency envelope (may be empty), ending no later than the amplitude envelope.
  public var frequency: [FrequencyBreakpoint]

  /// Creates a clip (``HapticClipReader`` checks the format's rules; this does not).
  public init(
    version: Version = Version(major: 1, minor: 0, patch: 0), metadata: Metadata = Metadata(),
    amplitude: [AmplitudeBreakpoint], frequency: [FrequencyBreakpoint] = []
  ) {
    self.version = version
    self.metadata = metadata
    self.amplitude = amplitude
    self.frequency = frequency
  }

  /// The clip's length: its last amplitude breakpoint's time.
  public var duration: Double { amplitude.last?.time ?? 0 }
}
