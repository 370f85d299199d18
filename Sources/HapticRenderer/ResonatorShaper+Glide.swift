/// How an LRA driven off resonance stops: it glides to f0 first.
///
/// On its forced orbit below resonance the carrier is nearly in phase with the displacement,
/// so (a) cutting the drive raises the acceleration by up to (f0/f)² (the drive's force was
/// holding the mass against part of the spring force) and (b) reverse drive at that phase is
/// in quadrature with the velocity and brakes almost nothing; above resonance (b) holds too.
/// At f0 neither is true: the drive is in phase with the velocity, removing it changes no
/// acceleration, and reverse drive brakes at the full rate (a lone transient stops in 0–2.4 ms).
/// So a stop first moves the carrier to f0 by ``glideStepHz`` a frame, asking for a falling
/// acceleration (× ``glideDecay`` a frame) at each frequency on the way, and brakes there.
extension ResonatorShaper {
  /// Hertz the carrier moves toward f0 per frame of a stop.
  static let glideStepHz = 6
  /// The acceleration asked for falls by this factor per frame of the glide.
  static let glideDecay = 0.75
  /// … and by this one on a glide from a few hertz above f0 (within two steps), where the
  /// carrier meets the ring's velocity at a useful phase already: 176 Hz on `sim-lra` then stops
  /// in 11 ms (16 ms braking at f0 at once, 14 ms gliding at 0.75). Below f0 the falling drive
  /// would raise the acceleration (the exit of §15.3): 166 Hz overshot by 1.27 at 0.5.
  static let nearGlideDecay = 0.5

  /// The target drive of this frame of a stop (the frequency is selected): on the glide to
  /// f0 the drive whose orbit has the falling acceleration, at f0 (or already there) 0.
  mutating func glideTarget() -> Double {
    let f0 = Int(resonantHz)
    guard band != nil else { return 0 }
    if glide == nil {
      guard previousTarget > 0, abs(selectedHz - f0) > 1 else { return 0 }
      glide = (previousTarget * selected.acceleration, selectedHz, abs(f0 - selectedHz) <= 2 * Self.glideStepHz)
    }
    guard var state = glide else { return 0 }
    let gap = f0 - state.hz
    // ``glideStepHz`` a frame; from near f0 (within two steps) half the way each frame, so a
    // stop a few hertz off f0 glides too (176 Hz on `sim-lra`: 173, 171, 170).
    let stepHz = state.halving ? (abs(gap) + 1) / 2 : Self.glideStepHz
    state.hz += gap > 0 ? min(gap, stepHz) : max(gap, -stepHz)
    state.acceleration *= state.halving && state.hz > f0 ? Self.nearGlideDecay : Self.glideDecay
    guard state.hz != f0 else {
      glide = nil
      return 0
    }
    glide = state
    select(Double(state.hz))
    return state.acceleration / selected.acceleration
  }
}
