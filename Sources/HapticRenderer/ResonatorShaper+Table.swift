import Foundation

/// The per-hertz responses of the exact resonator model: a frame of unit sine drive from rest,
/// the carrier's advance over a frame, and the steady orbit of unit drive (docs/semantics.md
/// §11.10, §15.3), shared by every render of the same actuator and band.
extension ResonatorShaper {
  struct Frequency: Sendable {
    /// Response at the frame end to a frame of drive e^{iωt} from rest: (x, ẋ), complex.
    var r1: (re: Double, im: Double)
    var r2: (re: Double, im: Double)
    /// e^{iωT}: the carrier's advance over a frame.
    var turn: (re: Double, im: Double)
    /// The steady orbit of unit drive: (x, ẋ) = (Im(c·h1), Im(c·h2)) at carrier phasor c.
    var h1: (re: Double, im: Double)
    var h2: (re: Double, im: Double)
    /// The steady acceleration amplitude of unit drive, ω²·|H| (1 at f0).
    var acceleration: Double
    /// Per frame, how far a falling target may fall (a factor; 0: at once): below resonance
    /// the drive's force holds the mass against part of the spring force, so a drop of the
    /// drive raises the acceleration by up to (f0/f)² before the vibration can shrink.
    var exitDecay: Double
  }

  /// Below this many levels a steady drive is dithered between the two nearest levels.
  static let ditherLevels = 10.0
  /// How far (a fraction of the orbit, energy norm) a dithered level may leave the resonator
  /// from the target's orbit before the other level is sent (``ditheredLevel(around:reference:levels:)``).
  static let ditherTolerance = 0.02
  /// The time constant a falling target follows below resonance (``Frequency/exitDecay``).
  static let exitTime = 0.003

  /// How much acceleration the drive's own force may add, against the larger of the
  /// vibration's and the target's (see ``drive(toward:crispness:)``).
  static let forceLimit = 0.4
  /// How long a felt level keeps allowing drive force after the target drops, seconds (decay
  /// time constant).
  static let holdTime = 0.020

  struct TableKey: Hashable, Sendable {
    let actuator: ActuatorModel
    let framePeriod: Double
    let band: ClosedRange<Int>?
  }

  /// Per-hertz responses, shared by every render of the same actuator and band.
  static let tables = SharedTables<TableKey, [Frequency]>()

  /// The response to a frame of unit sine drive at each whole-hertz frequency of `band` (or at
  /// f0 alone), given the free evolution `phi` over a frame.
  static func makeTable(
    actuator: ActuatorModel, framePeriod: Double, band: ClosedRange<Int>?,
    phi: (a: Double, b: Double, c: Double, d: Double)
  ) -> [Frequency] {
    let f0 = actuator.resonantFrequency
    let q = actuator.qualityFactor ?? 11
    let w0 = 2 * Double.pi * f0
    let sigma = w0 / (2 * q)
    let g = 1 / q
    let frequencies = band.map { Array($0).map(Double.init) } ?? [f0]
    return frequencies.map { f in
      let w = 2 * Double.pi * f
      // H = g / (ω0² − ω² + 2iσω)
      let (dr, di) = (w0 * w0 - w * w, 2 * sigma * w)
      let den = dr * dr + di * di
      let h1 = (re: g * dr / den, im: -g * di / den)
      let h2 = (re: -w * h1.im, im: w * h1.re)
      let turn = (re: cos(w * framePeriod), im: sin(w * framePeriod))
      func times(_ a: (re: Double, im: Double), _ b: (re: Double, im: Double)) -> (re: Double, im: Double) {
        (a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
      }
      let end1 = times(h1, turn)
      let end2 = times(h2, turn)
      // R = s_p(T) − Φ·s_p(0)
      let r1 = (re: end1.re - (phi.a * h1.re + phi.b * h2.re), im: end1.im - (phi.a * h1.im + phi.b * h2.im))
      let r2 = (re: end2.re - (phi.c * h1.re + phi.d * h2.re), im: end2.im - (phi.c * h1.im + phi.d * h2.im))
      let acceleration = w * w * (h1.re * h1.re + h1.im * h1.im).squareRoot()
      let exitDecay = f < 0.97 * f0 ? exp(-framePeriod / exitTime) : 0
      return Frequency(
        r1: r1, r2: r2, turn: turn, h1: h1, h2: h2, acceleration: acceleration, exitDecay: exitDecay)
    }
  }

}
