/// Control-rate evaluation of a pattern's target.
///
/// While nothing in a pattern jumps or bends — no voice starts or ends, no envelope changes
/// phase, every control stays on one straight piece of its curve — a channel's target is a
/// smooth function of time. ``PatternVoices`` then evaluates it exactly every few frames and
/// interpolates linearly in between, after checking the exact value at the midpoint: the
/// interpolation is used only when it is within ``powerTolerance`` (relative) of the exact
/// power and within ``hertzTolerance`` of the exact frequency there. For a smooth target the
/// midpoint holds the largest error; for a target with one bend inside the ramp the error
/// anywhere is at most twice the midpoint's. So interpolated frames stay within 2 × 10⁻⁴ of the
/// exact power — a hundredth of a drive level — at a fraction of the cost (one `exp` and two
/// table lookups per voice per exact frame). docs/semantics.md §14.
struct TargetRamp: Sendable {
  /// The longest ramp, in frames; ramps are 64, 32, 16, 8 or 4 frames long.
  static let maxFrames = 64
  /// The shortest ramp worth checking.
  static let minFrames = 4
  /// Frames evaluated one by one after every length was refused.
  static let backoffFrames = 16
  /// Largest accepted midpoint error of the power (and power-weighted frequency), relative.
  static let powerTolerance = 0.8e-4  // 1e-4 let one corpus stretch reach 2.14e-4 (semantics §14)
  /// Largest accepted midpoint error of the frequency and crispness (Hz, and fraction).
  static let hertzTolerance = 0.01
  static let crispnessTolerance = 1e-4

  /// The frame of `from` (exact).
  private(set) var start = 0
  /// The frame of `to` (exact); frames strictly between are interpolated. 0: no ramp.
  private(set) var end = 0
  private(set) var from = FrameTarget.silent(hz: 0)
  private(set) var to = FrameTarget.silent(hz: 0)
  /// Per frame: (to − from) / length, for each interpolated field.
  private var step = (power: 0.0, weightedHz: 0.0, hz: 0.0, crispness: 0.0)
  /// No ramp is tried before this frame (set after every length was refused).
  var retryAt = 0
  /// The length the next ramp tries first: twice the last one kept (up to ``maxFrames``), or
  /// ``minFrames`` after every length was refused — a target that bends too fast for ramps
  /// costs one refused try per ``backoffFrames`` frames, not several exact evaluations per
  /// frame.
  private(set) var preferredFrames = maxFrames

  /// The ramp's length for a ramp starting at frame `k` whose smooth stretch ends before
  /// frame `limit` (the end frame must lie before it), or 0 when none fits.
  func length(from k: Int, before limit: Int) -> Int {
    var frames = preferredFrames
    while frames >= Self.minFrames {
      if k + frames < limit { return frames }
      frames /= 2
    }
    return 0
  }

  /// Starts a ramp from `from` at frame `start` to `to` at `start + frames`, if `mid` (the
  /// exact target at `start + frames / 2`) is close enough to the interpolation. Returns
  /// whether the ramp was accepted.
  mutating func begin(at start: Int, frames: Int, from: FrameTarget, mid: FrameTarget, to: FrameTarget) -> Bool {
    guard Self.fits(from: from, mid: mid, to: to) else {
      end = 0
      return false
    }
    preferredFrames = Swift.min(2 * frames, Self.maxFrames)
    self.start = start
    end = start + frames
    self.from = from
    self.to = to
    let inverse = 1 / Double(frames)
    step = (
      (to.power - from.power) * inverse, (to.weightedHz - from.weightedHz) * inverse, (to.hz - from.hz) * inverse,
      (to.crispness - from.crispness) * inverse
    )
    return true
  }

  /// Records that no length fit from frame `k`: frames are evaluated one by one for a while.
  mutating func refuse(at k: Int) {
    end = 0
    preferredFrames = Self.minFrames
    retryAt = k + Self.backoffFrames
  }

  /// Ends the ramp (after a dynamic parameter changed the pattern).
  mutating func cancel(at frame: Int) {
    end = 0
    retryAt = frame
  }

  /// The interpolated target of frame `k`, `start < k < end`.
  @inline(__always)
  func target(at k: Int) -> FrameTarget {
    let n = Double(k - start)
    // Transients are constant over a ramp (no voice starts or ends on one).
    return FrameTarget(
      power: from.power + step.power * n, weightedHz: from.weightedHz + step.weightedHz * n,
      hz: from.hz + step.hz * n, crispness: from.crispness + step.crispness * n, hasVoices: true,
      transientPower: from.transientPower, transientWeightedHz: from.transientWeightedHz,
      transientAhead: from.transientAhead, transientNext: from.transientNext)
  }

  /// Whether the midpoint of the straight line from `from` to `to` is within tolerance of the
  /// exact `mid`.
  static func fits(from: FrameTarget, mid: FrameTarget, to: FrameTarget) -> Bool {
    guard from.hasVoices && mid.hasVoices && to.hasVoices else { return false }
    guard from.transientPower == to.transientPower && from.transientWeightedHz == to.transientWeightedHz,
      from.transientAhead == to.transientAhead && mid.transientAhead == from.transientAhead,
      !from.transientNext && !mid.transientNext && !to.transientNext
    else { return false }
    func close(_ a: Double, _ b: Double, _ c: Double, relative: Double) -> Bool {
      abs((a + c) / 2 - b) <= relative * abs(b)
    }
    return close(from.power, mid.power, to.power, relative: powerTolerance)
      && close(from.weightedHz, mid.weightedHz, to.weightedHz, relative: powerTolerance)
      && abs((from.hz + to.hz) / 2 - mid.hz) <= hertzTolerance
      && abs((from.crispness + to.crispness) / 2 - mid.crispness) <= crispnessTolerance
  }
}
