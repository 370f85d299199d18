/// Low levels between two quantisation steps (docs/semantics.md §15.3).
extension ResonatorShaper {
  /// Which of the two levels around `drive` this frame sends: a noise-shaping quantiser whose
  /// loop filter is the exact resonator model, with hysteresis.
  ///
  /// The resonator's state is what is felt. The level sent last is kept until the state after
  /// this frame would leave the steady orbit of `reference` by more than ``ditherTolerance`` on
  /// that level's side (above it for the upper level, below it for the lower one); then the
  /// other level is sent. So the felt level stays within ±``ditherTolerance`` of the target,
  /// its mean within a fraction of that (the state crosses the whole band each way), and a
  /// level holds 3–16 frames (median 6) rather than one or two: a change of level is a new
  /// segment on the wire, and choosing the nearer state every frame cost the 15 s `16_points`
  /// 2,603 segments on `sim-lra` (10.3 kB; 1% byte loss then made batches late).
  ///
  /// Plain error diffusion (the rounding error carried into the next frame, the first rule)
  /// mixed the levels in a fixed rhythm: at 1.37 levels a 3 ms pattern whose 333 Hz rhythm on a
  /// 170 Hz carrier put a sideband at 163 Hz, inside the resonance, and the felt level beat at
  /// 7 Hz by ±14 % (`sim-lra`, intensity 0.05 at f0). Steering by the state leaves the
  /// resonator no error to accumulate.
  @inline(__always)
  func ditheredLevel(around drive: Double, reference: Double, levels: LevelRange) -> Int {
    let low = Int((drive / resolutionLevel).roundedDownFast)
    let (free, b, goal) = frameReach(toward: reference)
    let w2 = omega0 * omega0
    let size = w2 * goal.0 * goal.0 + goal.1 * goal.1
    /// The state error after a frame of `level`: its square (energy norm), and its part along
    /// the orbit as a signed fraction of the orbit (> 0: stronger than the target).
    func error(_ level: Int) -> (squared: Double, along: Double) {
      let u = Double(level) * resolutionLevel
      let (ex, ev) = (free.0 + u * b.0 - goal.0, free.1 + u * b.1 - goal.1)
      return (w2 * ex * ex + ev * ev, size > 0 ? (w2 * ex * goal.0 + ev * goal.1) / size : 0)
    }
    // Never 0 while driving (a zero frame restarts the carrier, protocol §6.5).
    let lower = min(max(low, max(levels.min, 1)), levels.max)
    let upper = min(lower + 1, levels.max)
    if lastLevel == upper && upper != lower { return error(upper).along <= Self.ditherTolerance ? upper : lower }
    if lastLevel == lower && upper != lower { return error(lower).along >= -Self.ditherTolerance ? lower : upper }
    return error(upper).squared < error(lower).squared ? upper : lower
  }
}
