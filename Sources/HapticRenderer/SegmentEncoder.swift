/// Turns a frame stream into segments, greedily: a segment grows while the straight line from
/// its first frame to the newest frame passes within half a level (and half a hertz) of every
/// frame in between. Expanding the segments then reproduces every frame within 1 level and 1 Hz,
/// and every zero-level frame exactly.
///
/// Streaming: it keeps one open segment and its feasible slope interval, O(1) per frame.
public struct SegmentEncoder: Sendable {
  /// The longest segment emitted, in frames (fits a 16-bit duration).
  public static let maxFrames = 65_535
  private static let tolerance = 0.5

  private var start: Frame?
  private var last: Frame?
  private var count = 0
  // Feasible slope intervals from the start frame, for level and frequency.
  private var levelLow = -Double.infinity
  private var levelHigh = Double.infinity
  private var hzLow = -Double.infinity
  private var hzHigh = Double.infinity
  /// True while every frame of the open segment equals its first: then the intervals are
  /// exactly ±tolerance / (last offset), and they are only materialised when the run ends.
  private var flat = true

  /// Creates an encoder.
  public init() {}

  /// Adds the next frame (indices must be consecutive); returns a segment when one closes.
  @inline(__always)
  public mutating func add(_ frame: Frame) -> Segment? {
    guard let first = start, let previous = last else {
      open(at: frame)
      return nil
    }
    if flat && frame.level == first.level && frame.frequency == first.frequency
      && frame.index == previous.index + 1 && count < Self.maxFrames
    {
      last = frame
      count += 1
      return nil
    }
    if flat && count > 1 {
      let span = Double(previous.index - first.index)
      levelLow = -Self.tolerance / span
      levelHigh = Self.tolerance / span
      hzLow = levelLow
      hzHigh = levelHigh
    }
    flat = false
    let inverse = 1 / Double(frame.index - first.index)
    let levelDelta = Double(frame.level - first.level)
    let hzDelta = Double(frame.frequency - first.frequency)
    let levelSlope = levelDelta * inverse
    let hzSlope = hzDelta * inverse
    // Zero frames never share a segment with driven frames, so a zero stays exactly zero on
    // the board (an LRA board restarts its carrier after a zero frame, protocol §6.5).
    let fits =
      count < Self.maxFrames && frame.index == previous.index + 1 && (frame.level == 0) == (first.level == 0)
      && levelSlope >= levelLow && levelSlope <= levelHigh && hzSlope >= hzLow && hzSlope <= hzHigh
    if fits {
      // Narrow the intervals so that this frame stays within tolerance of later lines.
      let margin = Self.tolerance * inverse
      levelLow = Swift.max(levelLow, levelSlope - margin)
      levelHigh = Swift.min(levelHigh, levelSlope + margin)
      hzLow = Swift.max(hzLow, hzSlope - margin)
      hzHigh = Swift.min(hzHigh, hzSlope + margin)
      last = frame
      count += 1
      return nil
    }
    let closed = segment(from: first, to: previous)
    open(at: frame)
    return closed
  }

  /// Closes the open segment at the end of the stream.
  public mutating func finish() -> Segment? {
    guard let first = start, let previous = last else { return nil }
    start = nil
    last = nil
    return segment(from: first, to: previous)
  }

  private mutating func open(at frame: Frame) {
    start = frame
    last = frame
    count = 1
    levelLow = -.infinity
    levelHigh = .infinity
    hzLow = -.infinity
    hzHigh = .infinity
    flat = true
  }

  private func segment(from first: Frame, to last: Frame) -> Segment {
    Segment(
      startFrame: first.index, frames: last.index - first.index + 1, startLevel: first.level,
      endLevel: last.level, startFrequency: first.frequency, endFrequency: last.frequency)
  }
}
