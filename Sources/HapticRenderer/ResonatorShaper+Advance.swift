/// Advancing the resonator model by the frames actually sent (docs/semantics.md §15.3).
extension ResonatorShaper {
  /// One more frame of the drive `sent` toward `target` at the frequency of the last step
  /// (the repeat of a frame that held).
  @inline(__always)
  mutating func repeatStep(sent: Double, target: Double) {
    advance(sent: sent, target: target)
  }

  /// A frame at rest with nothing to play (the stage sends 0 without shaping): what was just
  /// felt fades as it would while braking, so an onset after a silence does not depend on what
  /// played before it (found by the `.haptic` round trip: a held level frozen over 1.2 s of
  /// silence made an onset 27 instead of 127 on `sim-lra`).
  @inline(__always)
  mutating func rest() {
    heldAcceleration *= holdDecay
    previousTarget = 0
    lastLevel = 0
    lastSentZero = true
  }

  /// Advances one frame with the drive actually sent (after quantisation), at the selected
  /// frequency.
  @inline(__always)
  mutating func advance(sent drive: Double, target: Double) {
    previousTarget = target
    heldAcceleration = max(heldAcceleration * holdDecay, target * selected.acceleration)
    let k = selected
    let start = startCarrier
    let b = drive == 0 ? (0.0, 0.0) : Self.imag(start, k.r1, k.r2)
    let nx = phi.a * x + phi.b * v + drive * b.0
    let nv = phi.c * x + phi.d * v + drive * b.1
    x = nx
    v = nv
    if drive != 0 {
      carrier = (start.re * k.turn.re - start.im * k.turn.im, start.re * k.turn.im + start.im * k.turn.re)
    }
    lastSentZero = drive == 0
    if target <= 0 && drive <= 0 && energy < stopEnergy {
      x = 0
      v = 0
    }
  }
}
