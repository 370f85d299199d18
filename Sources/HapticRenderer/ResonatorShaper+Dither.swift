/// Low levels between two quantisation steps (docs/semantics.md §15.3).
extension ResonatorShaper {
  /// The level, of the two around `drive`, whose frame leaves the resonator closest (in the
  /// energy norm) to the steady orbit of `reference` at the frame's end: a noise-shaping
  /// quantiser whose loop filter is the exact resonator model.
  ///
  /// Plain error diffusion (the rounding error carried into the next frame) mixed the levels
  /// in a fixed rhythm: at 1.37 levels a pattern of period 3 ms, whose 333 Hz rhythm on a
  /// 170 Hz carrier put a sideband at 163 Hz, inside the resonance, and the felt level beat at
  /// 7 Hz by ±14 % (`sim-lra`, intensity 0.05 at f0). Choosing each frame by the state leaves
  /// no error the resonator can accumulate.
  @inline(__always)
  func ditheredLevel(around drive: Double, reference: Double, levels: LevelRange) -> Int {
    let low = Int((drive / resolutionLevel).roundedDownFast)
    let (free, b, goal) = frameReach(toward: reference)
    let w2 = omega0 * omega0
    func error(_ level: Int) -> Double {
      let u = Double(level) * resolutionLevel
      let (ex, ev) = (free.0 + u * b.0 - goal.0, free.1 + u * b.1 - goal.1)
      return w2 * ex * ex + ev * ev
    }
    // Never 0 while driving (a zero frame restarts the carrier, protocol §6.5).
    let lower = min(max(low, max(levels.min, 1)), levels.max)
    let upper = min(lower + 1, levels.max)
    return error(upper) < error(lower) ? upper : lower
  }
}
