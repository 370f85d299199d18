public import HapticCore

/// Renders a pattern into frames for one channel of a board, one frame at a time: its voices
/// (``PatternVoices``) through a drive stage (``DriveStage``: intensity mapping, overdrive and
/// braking, quantisation).
///
/// Pull-based: it holds the pattern and the voices sounding now, never the frame timeline, so a
/// pattern of any length renders in constant memory. Frames start at 0 s and end with the first
/// all-zero frame after every event, release tail and brake has finished.
public struct FrameRenderer: Sendable, IteratorProtocol, Sequence {
  private var voices: PatternVoices
  private var drive: DriveStage
  private var finished = false
  /// Frames rendered since every voice finished (the drive stage stopping and braking).
  private var tailFrames = 0
  /// The longest stop after the last voice, seconds: a braked actuator rests within tens of
  /// milliseconds; this bound only ends a render the drive stage would not end by itself (a
  /// profile whose actuator never comes to rest must not render forever).
  public static let maximumTail = 1.0
  /// A settled frame being repeated: while the voices' target holds and the drive stage has
  /// settled on it, frames repeat without asking either; the shaper's model catches up on
  /// them in one tight loop before the next frame that is worked out (the same steps in the
  /// same order, so the same result).
  private var repeated = Frame(index: 0, level: 0, frequency: 0)
  private var repeatsLeft = 0
  private var repeatsOwed = 0

  /// Prepares rendering of `pattern` for `channel` of `profile`.
  ///
  /// - Throws: ``RenderError`` when the profile is unusable, the channel does not exist, or the
  ///   pattern is longer than ``RenderOptions/maxDuration``.
  public init(
    pattern: HapticPattern, profile: BoardProfile, channel: Int = 0,
    options: RenderOptions = RenderOptions()
  ) throws(RenderError) {
    voices = try PatternVoices(pattern: pattern, profile: profile, channel: channel, options: options)
    drive = try DriveStage(profile: profile, channel: channel, options: options)
  }

  /// The frame period in seconds.
  public var framePeriod: Double { voices.period }

  /// The drive-frequency band sharpness maps onto, or `nil` on amplitude-only boards.
  public var sharpnessBand: ClosedRange<Int>? { voices.map.band }

  /// The intensity mapping this render uses: the options', or the square law for a pattern whose
  /// intensities are √ of amplitudes (a `.haptic` clip, ``HapticCore/HapticPattern/intensityLaw``).
  public var intensityMapping: IntensityMapping { voices.map.mapping }

  /// The length of the transient drive window for `sharpness`, in seconds
  /// (docs/semantics.md §11.5 and §15.7).
  ///
  /// LRA with a sharpness band: 2.6 − 1.3 × sharpness cycles of the resonant frequency; an
  /// amplitude-only LRA 1.5 − 0.2 × sharpness; at least 4 ms. ERM: 60 ms at sharpness 0 down to
  /// 25 ms at 1 (a motor needs drive time to spin up at all).
  public func transientWindow(sharpness: Double) -> Double {
    voices.windows.seconds(sharpness: sharpness)
  }

  /// The next frame, or `nil` after the final zero frame.
  @inline(__always)
  public mutating func next() -> Frame? {
    if repeatsLeft > 0 {
      repeatsLeft -= 1
      repeatsOwed += 1
      repeated.index = voices.skipSteadyFrame()
      return repeated
    }
    guard !finished else { return nil }
    if repeatsOwed > 0 {
      drive.repeatSettled(count: repeatsOwed)
      repeatsOwed = 0
    }
    let k = voices.frameIndex
    let target = voices.next()
    let frame = drive.frame(index: k, target: target)
    if drive.isSettled(on: target) {
      repeated = frame
      repeatsLeft = voices.steadyFramesLeft
    }
    if voices.isFinished {
      tailFrames += 1
      if Double(tailFrames) * voices.period > Self.maximumTail {
        finished = true
        repeatsLeft = 0
        return Frame(index: k, level: 0, frequency: frame.frequency)
      }
    }
    if frame.level == 0 && voices.isFinished && drive.isAtRest { finished = true }
    return frame
  }
}
