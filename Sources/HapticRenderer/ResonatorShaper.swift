import Foundation

/// Host-side overdrive and braking for an LRA: the exact linear resonator, stepped one frame at
/// a time, and the one-frame drive that brings it closest to where it should be.
///
/// The board drives `level × sin φ`, its carrier phase φ running continuously at the frame's
/// frequency and restarting at 0 on the first non-zero frame after a zero frame
/// (docs/protocol.md §6.5). So the host knows the drive waveform exactly, and with
/// `ẍ + (ω0/Q)·ẋ + ω0²·x = u·sin φ(t) / Q` (units where a steady drive of 1 at f0 gives
/// amplitude 1) one frame maps the state s = (x, ẋ) linearly: `s' = Φ·s + u·b(φ0)`, with Φ the
/// free evolution over a frame and b the response to a frame of unit sine drive starting at
/// phase φ0, both exact (no envelope approximation, any detuning).
///
/// Each frame the shaper picks the real drive u minimising the distance (in the energy norm)
/// between `s'` and the steady orbit of the target drive — the deadbeat onset, or with a
/// target of 0 the brake that leaves the least energy — clamped by crispness as
/// ``DriveShaper`` does; near the orbit it sends the feed-forward d + τ·ḋ.
struct ResonatorShaper: Sendable {
  struct Frequency: Sendable {
    /// Response at the frame end to a frame of drive e^{iωt} from rest: (x, ẋ), complex.
    var r1: (re: Double, im: Double)
    var r2: (re: Double, im: Double)
    /// e^{iωT}: the carrier's advance over a frame.
    var turn: (re: Double, im: Double)
  }

  private let omega0: Double
  private let phi: (a: Double, b: Double, c: Double, d: Double)
  /// (stopThreshold / ω0)²: the rest test on the energy (ω0x)² + ẋ², without a square root.
  private let stopEnergy: Double
  /// The envelope model that drives onsets, steps and steady targets.
  private var envelopeModel: DriveShaper
  private let band: ClosedRange<Int>?
  private let table: [Frequency]
  /// The table entry in use and its whole-hertz frequency (looked up again only when the
  /// frame's frequency rounds to another hertz).
  private var selected: Frequency
  private var selectedHz = Int.min
  private var x = 0.0
  private var v = 0.0
  private var carrier = (re: 1.0, im: 0.0)
  private var lastSentZero = true

  /// - Parameters:
  ///   - actuator: the LRA (f0, Q, time constants); `framePeriod`: seconds per frame.
  ///   - stopThreshold: amplitude (fraction of full scale at f0) below which the resonator
  ///     counts as at rest once drive stops; `resolution`: one level as a fraction of full scale.
  ///   - frequencyBand: whole-hertz drive frequencies, or `nil` (always f0).
  init(
    actuator: ActuatorModel, framePeriod: Double, stopThreshold: Double, resolution: Double,
    frequencyBand: ClosedRange<Int>?
  ) {
    envelopeModel = DriveShaper(
      actuator: actuator, framePeriod: framePeriod, stopThreshold: stopThreshold, resolution: resolution)
    let f0 = actuator.resonantFrequency
    let q = actuator.qualityFactor ?? 11
    let w0 = 2 * Double.pi * f0
    omega0 = w0
    band = frequencyBand
    let sigma = w0 / (2 * q)
    let wd = (w0 * w0 - sigma * sigma).squareRoot()
    let decay = exp(-sigma * framePeriod)
    let (cs, sn) = (cos(wd * framePeriod), sin(wd * framePeriod))
    phi = (
      decay * (cs + sigma / wd * sn), decay * sn / wd, -decay * w0 * w0 / wd * sn, decay * (cs - sigma / wd * sn)
    )
    let phi = self.phi
    table = Self.tables.value(for: TableKey(actuator: actuator, framePeriod: framePeriod, band: frequencyBand)) {
      Self.makeTable(actuator: actuator, framePeriod: framePeriod, band: frequencyBand, phi: phi)
    }
    selected = table[0]
    stopEnergy = (stopThreshold / w0) * (stopThreshold / w0)
  }

  private struct TableKey: Hashable, Sendable {
    let actuator: ActuatorModel
    let framePeriod: Double
    let band: ClosedRange<Int>?
  }

  /// Per-hertz responses, shared by every render of the same actuator and band.
  private static let tables = SharedTables<TableKey, [Frequency]>()

  /// The response to a frame of unit sine drive at each whole-hertz frequency of `band` (or at
  /// f0 alone), given the free evolution `phi` over a frame.
  private static func makeTable(
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
      return Frequency(r1: r1, r2: r2, turn: turn)
    }
  }

  /// Makes the table entry for `frequency` (rounded to whole Hz, clamped to the band) current.
  @inline(__always)
  private mutating func select(_ frequency: Double) {
    guard let band else { return }
    let hz = min(max(Int(frequency.roundedToEven), band.lowerBound), band.upperBound)
    if hz != selectedHz {
      selectedHz = hz
      selected = table[hz - band.lowerBound]
    }
  }

  /// (ω0x)² + ẋ²: the resonator's energy, in units where the envelope is ω0·√energy.
  @inline(__always)
  private var energy: Double { (omega0 * x) * (omega0 * x) + v * v }

  /// Vibration amplitude as a fraction of full-scale drive at f0 (exact at resonance).
  var envelope: Double { omega0 * energy.squareRoot() }

  /// True when the resonator is modelled as at rest.
  var isAtRest: Bool {
    @inline(__always) get { x == 0 && v == 0 }
  }

  /// The carrier phasor a frame with non-zero drive would start with.
  @inline(__always)
  private var startCarrier: (re: Double, im: Double) { lastSentZero ? (1, 0) : carrier }

  /// Im(c·z) for each component of a complex 2-vector: the response to sin-phase drive.
  @inline(__always)
  private static func imag(
    _ c: (re: Double, im: Double), _ z1: (re: Double, im: Double), _ z2: (re: Double, im: Double)
  ) -> (Double, Double) {
    (c.re * z1.im + c.im * z1.re, c.re * z2.im + c.im * z2.re)
  }

  /// The drive for this frame toward `target` (≥ 0) with `crispness` in 0…1, at the selected
  /// frequency (``select(_:)``).
  ///
  /// While there is a target the first-order envelope model decides (deadbeat onset and steps,
  /// feed-forward near the target; ``DriveShaper``): the exact state would make the controller
  /// chase the beating between the drive and the natural mode, frame by frame. With no target,
  /// the exact state decides the brake: the real drive that leaves the least energy
  /// √((ω0x)² + ẋ²), for the free ring at f0.
  @inline(__always)
  private func drive(toward target: Double, crispness: Double) -> Double {
    if target > 0 { return envelopeModel.drive(toward: target, crispness: crispness) }
    if energy < stopEnergy { return 0 }
    let c = min(max(crispness, 0), 1)
    let b = Self.imag(startCarrier, selected.r1, selected.r2)
    let free = (phi.a * x + phi.b * v, phi.c * x + phi.d * v)
    let w2 = omega0 * omega0
    let a = w2 * b.0 * b.0 + b.1 * b.1
    let drive = a > 0 ? -(w2 * b.0 * free.0 + b.1 * free.1) / a : 0
    return min(max(drive, -c), c)
  }

  /// One frame: the drive toward `target`, quantised to a level, and the model advanced with
  /// what was sent. Returns the level.
  @inline(__always)
  mutating func step(toward target: Double, crispness: Double, frequency: Double, levels: LevelRange) -> Int {
    select(frequency)
    let level = levels.quantize(drive(toward: target, crispness: crispness))
    advance(sent: Double(level) * envelopeModel.resolutionLevel, target: target)
    return level
  }

  /// Whether the drive toward `target` is `target` from this frame on while it holds (the
  /// envelope model decides while there is a target; ``DriveShaper/holds(_:)``).
  @inline(__always)
  func holds(_ target: Double) -> Bool { envelopeModel.holds(target) }

  /// One more frame of the drive `sent` toward `target` at the frequency of the last step
  /// (the repeat of a frame that ``holds(_:)``).
  @inline(__always)
  mutating func repeatStep(sent: Double, target: Double) {
    advance(sent: sent, target: target)
  }

  /// Advances one frame with the drive actually sent (after quantisation), at the selected
  /// frequency.
  @inline(__always)
  private mutating func advance(sent drive: Double, target: Double) {
    envelopeModel.advance(sent: drive, target: target)
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
    if drive <= 0 && energy < stopEnergy {
      x = 0
      v = 0
    }
    // Without a target the exact state is the truth the next onset starts from.
    if target <= 0 { envelopeModel.envelope = envelope }
  }
}
