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

  /// The target drive of this frame of a stop (the frequency is selected): on the glide to
  /// f0 the drive whose orbit has the falling acceleration, at f0 (or already there) 0.
  mutating func glideTarget() -> Double {
    let f0 = Int(resonantHz)
    guard band != nil else { return 0 }
    if glide == nil {
      guard previousTarget > 0, abs(selectedHz - f0) > Self.glideStepHz else { return 0 }
      glide = (previousTarget * selected.acceleration, selectedHz)
    }
    guard var state = glide else { return 0 }
    let gap = f0 - state.hz
    state.hz += gap > 0 ? min(gap, Self.glideStepHz) : max(gap, -Self.glideStepHz)
    state.acceleration *= Self.glideDecay
    guard state.hz != f0 else {
      glide = nil
      return 0
    }
    glide = state
    select(Double(state.hz))
    return state.acceleration / selected.acceleration
  }
}
