/// The brake of the exact resonator model: each frame the real drive that leaves the least
/// energy, and whether coasting one frame to re-phase the carrier brakes better.
///
/// A brake can only work on the ring through the carrier: drive `u·sin φ` does work against
/// the velocity only as far as φ is in phase with it. After a vibration driven below (or
/// above) resonance the carrier is nearly in phase with the displacement, in quadrature with
/// the velocity, and a brake that keeps that phase does little but alternate sign frame by
/// frame. The board restarts the carrier at phase 0 on the first non-zero frame after a zero
/// frame (protocol §6.5), so one coasting frame re-phases it: the shaper compares two frames
/// ahead — brake now with the running carrier and again with it, or coast now and brake next
/// frame with a restarted one — and coasts when that leaves less energy.
extension ResonatorShaper {
  /// The energy-minimising drive for one frame from the free state `free` (already evolved
  /// over the frame) with carrier phasor `c` at the frame start, clamped to ±`limit`, and the
  /// state it leaves.
  @inline(__always)
  func bestBrake(
    free: (Double, Double), carrier c: (re: Double, im: Double), limit: Double
  ) -> (drive: Double, state: (Double, Double)) {
    let b = Self.imag(c, selected.r1, selected.r2)
    let w2 = omega0 * omega0
    let a = w2 * b.0 * b.0 + b.1 * b.1
    let unclamped = a > 0 ? -(w2 * b.0 * free.0 + b.1 * free.1) / a : 0
    let u = min(max(unclamped, -limit), limit)
    return (u, (free.0 + u * b.0, free.1 + u * b.1))
  }

  /// Φ·s.
  @inline(__always)
  func evolved(_ s: (Double, Double)) -> (Double, Double) {
    (phi.a * s.0 + phi.b * s.1, phi.c * s.0 + phi.d * s.1)
  }

  /// (ω0x)² + ẋ² of a state.
  @inline(__always)
  func energy(of s: (Double, Double)) -> Double {
    (omega0 * s.0) * (omega0 * s.0) + s.1 * s.1
  }

  /// This frame's brake drive (target 0), within ±`limit`: 0 to coast when re-phasing the
  /// carrier brakes better over two frames.
  func brakeDrive(limit: Double) -> Double {
    let free = evolved((x, v))
    let start = startCarrier
    let now = bestBrake(free: free, carrier: start, limit: limit)
    // Option A: brake now, then again with the running carrier (or a restarted one if this
    // frame sends nothing).
    let next = now.drive != 0
      ? (start.re * selected.turn.re - start.im * selected.turn.im, start.re * selected.turn.im + start.im * selected.turn.re)
      : (1.0, 0.0)
    let braked = bestBrake(free: evolved(now.state), carrier: (next.0, next.1), limit: limit).state
    // Option B: coast now, brake next frame with the carrier restarted at phase 0.
    let coasted = bestBrake(free: evolved(free), carrier: (1, 0), limit: limit).state
    return energy(of: coasted) < energy(of: braked) ? 0 : now.drive
  }
}
