/// A piecewise-linear stretch of drive: level and frequency ramp linearly from their start to
/// their end values over `frames` frames. What goes on the wire instead of every frame.
public struct Segment: Sendable, Hashable {
  /// The first frame the segment covers.
  public var startFrame: Int
  /// How many frames it covers (≥ 1).
  public var frames: Int
  /// The level at the first frame.
  public var startLevel: Int
  /// The level at the last frame.
  public var endLevel: Int
  /// The frequency (Hz) at the first frame; 0 on amplitude-only boards.
  public var startFrequency: Int
  /// The frequency (Hz) at the last frame.
  public var endFrequency: Int

  /// Creates a segment.
  public init(
    startFrame: Int, frames: Int, startLevel: Int, endLevel: Int, startFrequency: Int,
    endFrequency: Int
  ) {
    self.startFrame = startFrame
    self.frames = frames
    self.startLevel = startLevel
    self.endLevel = endLevel
    self.startFrequency = startFrequency
    self.endFrequency = endFrequency
  }

  /// True when the segment reverse-drives the actuator (a brake).
  public var isBrake: Bool { startLevel < 0 || endLevel < 0 }

  /// The frame after the segment.
  public var endFrame: Int { startFrame + frames }

  /// The level at frame offset `j` (0 ..< frames), rounded to the nearest level.
  public func level(at j: Int) -> Int {
    Self.interpolate(startLevel, endLevel, j, frames)
  }

  /// The frequency at frame offset `j`, rounded to the nearest Hz.
  public func frequency(at j: Int) -> Int {
    Self.interpolate(startFrequency, endFrequency, j, frames)
  }

  /// The frames the segment stands for.
  public func expanded() -> [Frame] {
    (0..<frames).map { Frame(index: startFrame + $0, level: level(at: $0), frequency: frequency(at: $0)) }
  }

  /// Integer linear interpolation of frame `j` of `n` from `a` to `b`, rounding half away from
  /// zero; exact at both ends (the playback rule of docs/protocol.md §6.5).
  public static func interpolate(_ a: Int, _ b: Int, _ j: Int, _ n: Int) -> Int {
    guard n > 1, a != b else { return a }
    let numerator = (b - a) * j
    let denominator = n - 1
    let q = numerator / denominator
    let r = numerator % denominator
    // Round the quotient half away from zero.
    if 2 * abs(r) >= denominator { return a + q + (numerator < 0 ? -1 : 1) }
    return a + q
  }
}
