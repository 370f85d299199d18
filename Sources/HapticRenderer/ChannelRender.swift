public import HapticCore

/// Statistics of one render: what the link must carry.
public struct RenderStats: Sendable, Hashable {
  /// Seconds covered by the frames (frames × frame period).
  public var duration: Double = 0
  /// Seconds until the drive comes to rest: the start of the render's last frame, the first of
  /// zero drive with the actuator at rest after everything played (docs/semantics.md §11.2).
  /// The drive duration every report gives (`drive_duration_s`); 0 when nothing drives.
  public var driveDuration: Double = 0
  /// Frames over all channels.
  public var frames = 0
  /// Segments over all channels.
  public var segments = 0
  /// Segments that reverse-drive (brake).
  public var brakeSegments = 0
  /// Frames sent naively, at 4 bytes per frame (level + 16-bit frequency + 1 byte of framing).
  public var naiveBytes: Int { frames * 4 }
  /// The largest |level| / maxLevel reached.
  public var peakAmplitude = 0.0

  /// Creates empty statistics.
  public init() {}

  /// Adds another channel's statistics (durations take the longest).
  public mutating func merge(_ other: RenderStats) {
    duration = Swift.max(duration, other.duration)
    driveDuration = Swift.max(driveDuration, other.driveDuration)
    frames += other.frames
    segments += other.segments
    brakeSegments += other.brakeSegments
    peakAmplitude = Swift.max(peakAmplitude, other.peakAmplitude)
  }
}

/// Renders one channel to frames and segments together, in one pass.
///
/// `next()` yields each frame with the segment (if any) that closed just before it; after the
/// last frame, ``finish()`` closes the final segment. ``stats`` accumulates as it goes.
public struct ChannelRender: Sendable {
  private var renderer: FrameRenderer
  private var encoder = SegmentEncoder()
  private let maxLevel: Int
  private let period: Double
  private var peakLevel = 0
  /// What has been rendered so far.
  public private(set) var stats = RenderStats()

  /// Prepares rendering; see ``FrameRenderer/init(pattern:profile:channel:options:)``.
  public init(
    pattern: HapticPattern, profile: BoardProfile, channel: Int = 0,
    options: RenderOptions = RenderOptions()
  ) throws(RenderError) {
    renderer = try FrameRenderer(pattern: pattern, profile: profile, channel: channel, options: options)
    maxLevel = profile.maxLevel
    period = profile.framePeriod
  }

  /// The underlying frame renderer's settings (frame period, sharpness band, windows).
  public var frameRenderer: FrameRenderer { renderer }

  /// The next frame and the segment that closed before it, or `nil` at the end.
  public mutating func next() -> (frame: Frame, closed: Segment?)? {
    guard let frame = renderer.next() else { return nil }
    stats.frames += 1
    stats.duration = Double(frame.index + 1) * period
    stats.driveDuration = Double(frame.index) * period
    if abs(frame.level) > peakLevel {
      peakLevel = abs(frame.level)
      stats.peakAmplitude = Double(peakLevel) / Double(maxLevel)
    }
    let closed = encoder.add(frame)
    if let closed { record(closed) }
    return (frame, closed)
  }

  /// Closes and returns the last segment (call once `next()` returned `nil`).
  public mutating func finish() -> Segment? {
    guard let last = encoder.finish() else { return nil }
    record(last)
    return last
  }

  private mutating func record(_ segment: Segment) {
    stats.segments += 1
    if segment.isBrake { stats.brakeSegments += 1 }
  }

  /// Renders everything into memory: frames, segments and stats. For tests and short patterns;
  /// streaming callers use `next()`.
  public mutating func collect() -> (frames: [Frame], segments: [Segment]) {
    var frames: [Frame] = []
    var segments: [Segment] = []
    while let (frame, closed) = next() {
      frames.append(frame)
      if let closed { segments.append(closed) }
    }
    if let last = finish() { segments.append(last) }
    return (frames, segments)
  }
}
