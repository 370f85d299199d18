/// Transient priority: from ``PatternVoices/transientLeadSeconds`` before a transient and while
/// it sounds, the continuous part of a channel's mixed target is ducked to nothing, and
/// afterwards it comes back linearly (in acceleration) over ``restoreSeconds``
/// (docs/semantics.md §15.4).
///
/// Without it a transient over a continuous event shares the drive headroom with it: on the
/// simulated LRA a full transient over an intensity-0.6 event peaked at 47–70 % of the same
/// transient alone. Ducked, the transient gets the whole drive (and, on an LRA, its own f0 as
/// the drive frequency), its brake runs toward silence, and the continuous drive fades back in
/// while the brake ends. Meta's renderer ducks the continuous signal during an emphasis; Lofelt's
/// Android player ducks 30 ms around one. The rule works on the mixed target, so several
/// players sharing an actuator follow it too.
struct TransientDucking: Sendable {
  /// How long the continuous drive stays ducked after the last transient frame, while the
  /// transient is braked at its own frequency.
  static let holdSeconds = 0.005
  /// How long the continuous drive then takes to come back.
  static let restoreSeconds = 0.020

  private let holdFrames: Int
  private let restoreFrames: Int
  /// The last frame index with transient power (`Int.min`: none yet).
  private var lastTransientFrame = Int.min
  /// What the last ``apply(_:index:)`` did to a continuous part, for the shaper.
  private(set) var style = ResonatorShaper.Style.corrected

  /// Ducking for frames of `framePeriod` seconds.
  init(framePeriod: Double) {
    holdFrames = max(0, Int((Self.holdSeconds / framePeriod).rounded()))
    restoreFrames = max(1, Int((Self.restoreSeconds / framePeriod).rounded()))
  }

  /// The gain (0…1, on acceleration) of the continuous part at frame `index`.
  @inline(__always)
  private func gain(at index: Int) -> Double {
    guard lastTransientFrame != Int.min else { return 1 }
    let since = index - lastTransientFrame - holdFrames
    if since <= 0 { return 0 }
    return since > restoreFrames ? 1 : Double(since) / Double(restoreFrames + 1)
  }

  /// Records `count` repeats of the frame before, whose target was `target` (frames the drive
  /// stage repeated without being asked; ``DriveStage/repeatSettled(count:)``).
  mutating func repeated(_ target: FrameTarget, count: Int) {
    if target.transientPower > 0 && lastTransientFrame != Int.min { lastTransientFrame += count }
  }

  /// The target of frame `index` with the continuous part ducked (the target itself when
  /// nothing is ducked: no transient sounds and none ended within the restore time).
  @inline(__always)
  mutating func apply(_ target: FrameTarget, index: Int) -> FrameTarget {
    if target.transientPower > 0 { lastTransientFrame = index }
    let g = target.transientPower > 0 || target.transientAhead ? 0 : gain(at: index)
    style = target.transientNext && target.transientPower == 0 ? .coast : .corrected
    guard g < 1 else { return target }
    let continuousPower = target.power - target.transientPower
    guard continuousPower > 0 else { return target }
    // Ahead of a transient the continuous vibration is stopped at once (the transient masks
    // the stop); while it comes back, the drive follows the fade-in without corrections.
    if target.transientPower == 0 && style != .coast {
      style = target.transientAhead ? .abruptStop : (g > 0 ? .follow : .corrected)
    }
    let scale = g * g
    var ducked = target
    ducked.power = target.transientPower + scale * continuousPower
    ducked.weightedHz = target.transientWeightedHz + scale * (target.weightedHz - target.transientWeightedHz)
    if ducked.power > 0 {
      ducked.hz = ducked.weightedHz / ducked.power
    }
    return ducked
  }
}
