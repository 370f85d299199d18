import Foundation

/// Sharpness → drive frequency on an LRA's sharpness band (docs/semantics.md §15.2).
///
/// An LRA's strength peaks at resonance: on `sim-lra` (f0 170 Hz, Q 11) rated drive gives
/// 1.48 G at 170 Hz and a quarter of that at the band's edges (147 and 211 Hz). A map linear in
/// hertz (Android 16's) put f0 at sharpness 0.36 and the middle of the range 8 Hz above it:
/// sharpness 0.5 gave 0.70 of the strongest acceleration, 0.75 only 0.37, and a `.haptic`
/// clip's frequency 0.5 (sharpness 0.71) 0.39. The warp instead spends sharpness on loudness
/// falling off the peak:
///
/// * sharpness 0.5 drives at the strongest frequency, 0 and 1 at the band's lower and upper edge;
/// * in between, the frequency on that side of the peak where rated drive is
///   `edge · d³` dB below the strongest acceleration, with `d = |2s − 1|` and `edge` that side's
///   edge's fall (about 12 dB, ``PerceptualMap/maxTiltDecibels``).
///
/// So the middle half of the range (0.25 … 0.75) stays within 1.8 dB of the strongest level
/// (0.82 × and more on `sim-lra`), the clip default (sharpness √0.5) within 0.9 dB, and
/// frequency still rises with sharpness everywhere; the ends of the range carry most of the
/// hertz. Cubic, not quadratic: d² kept 0.25 and 0.75 at 0.70 × but the clip default fell to
/// 0.78 ×.
struct SharpnessWarp: Sendable {
  /// The exponent of `d` (see above).
  static let exponent = 3.0
  /// Table entries over sharpness 0…1: fine enough that linear interpolation is within 0.05 Hz.
  static let entries = 513

  /// Drive frequency in Hz at sharpness `i / (entries − 1)`.
  let table: [Double]

  /// The warp over `band` (whole Hz) for an actuator whose rated drive gives `acceleration(hz)` G.
  init(band: ClosedRange<Int>, acceleration: (Double) -> Double) {
    let low = Double(band.lowerBound)
    let high = Double(band.upperBound)
    // The strongest frequency, to a hundredth of a hertz (a golden-section search would do;
    // a scan over the band's ≤ few hundred hertz costs nothing once per board).
    var peak = low
    var best = acceleration(low)
    var hz = low
    while hz <= high {
      let a = acceleration(hz)
      if a > best { (peak, best) = (hz, a) }
      hz += 0.01
    }
    let lowFall = 20 * log10(best / acceleration(low))
    let highFall = 20 * log10(best / acceleration(high))
    table = (0..<Self.entries).map { index in
      let s = Double(index) / Double(Self.entries - 1)
      let d = abs(2 * s - 1)
      guard d > 0 else { return peak }
      let below = s < 0.5
      let fall = (below ? lowFall : highFall) * pow(d, Self.exponent)
      let edge = below ? low : high
      if d >= 1 { return edge }
      // Rated acceleration falls monotonically from the peak to each edge: bisect for the
      // frequency where it is `fall` dB below the peak.
      let wanted = best * pow(10, -fall / 20)
      var near = peak
      var far = edge
      for _ in 0..<48 {
        let middle = (near + far) / 2
        if acceleration(middle) >= wanted { near = middle } else { far = middle }
      }
      return (near + far) / 2
    }
  }
}
