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
/// Each frame the shaper compares the state with the target's **steady orbit** — where a
/// steady drive of the target level at the frame's frequency keeps the resonator, at the
/// carrier's phase. Far from it (an onset, a step, a frequency change, a stop) it sends the real
/// drive that brings `s'` closest to the orbit (in the energy norm), clamped by crispness as
/// ``DriveShaper`` does: a deadbeat that knows the natural mode, so an off-resonance onset
/// lands on its level without beating. Near the orbit (within ``nearLevels`` levels or
/// ``nearFraction`` of the target) it sends the feed-forward d + τ·ḋ, which follows envelopes
/// and curves without chasing the quantisation error frame by frame.
struct ResonatorShaper: Sendable {
  /// How a step treats its target (``TransientDucking`` sets it).
  enum Style: Sendable {
    /// Corrections toward the target's orbit (and a soft exit below resonance).
    case corrected
    /// A stop without the soft exit (a transient follows at once and masks it).
    case abruptStop
    /// The target itself, without corrections (a fade-in).
    case follow
    /// Nothing this frame (a transient starts with the next one, on a restarted carrier).
    case coast
  }

  /// Within this many levels of the orbit the shaper feeds forward.
  static let nearLevels = 0.3
  /// … or within this fraction of the orbit's own size, whichever is larger.
  static let nearFraction = 0.15

  let omega0: Double
  let quality: Double
  /// f0 in whole hertz (the brake's carrier).
  let resonantHz: Double
  let phi: (a: Double, b: Double, c: Double, d: Double)
  /// (stopThreshold / ω0)²: the rest test on the energy (ω0x)² + ẋ², without a square root.
  let stopEnergy: Double
  /// One level as a fraction of full scale.
  let resolutionLevel: Double
  /// α / (1 − α) with α = e^(−T/τ): the feed-forward gain (≈ τ / T).
  let gain: Double
  /// The target of the previous frame, to tell a steady target from a moving one.
  var previousTarget = 0.0
  /// The target's steady acceleration (units of full-scale drive at f0), held with a
  /// ``holdTime`` decay: the level just felt.
  var heldAcceleration = 0.0
  /// e^(−T / holdTime).
  let holdDecay: Double
  /// A stop off resonance in progress: the acceleration still asked for and the frequency
  /// the drive has glided to (``glideTarget()``).
  var glide: (acceleration: Double, hz: Int, halving: Bool)?
  /// The least target of the next frame (a falling target's exit below resonance).
  var exitFloor = 0.0
  /// Whether the last step fed a target forward that it was near (see ``step``).
  private(set) var lastStepHolds = false
  let band: ClosedRange<Int>?
  let table: [Frequency]
  /// The table entry in use and its whole-hertz frequency (looked up again only when the
  /// frame's frequency rounds to another hertz).
  var selected: Frequency
  var selectedHz = Int.min
  var x = 0.0
  var v = 0.0
  var carrier = (re: 1.0, im: 0.0)
  var lastSentZero = true
  /// The level the last step sent (a dithered level is kept while it is near enough).
  var lastLevel = 0

  /// - Parameters:
  ///   - actuator: the LRA (f0, Q, time constants); `framePeriod`: seconds per frame.
  ///   - stopThreshold: amplitude (fraction of full scale at f0) below which the resonator
  ///     counts as at rest once drive stops; `resolution`: one level as a fraction of full scale.
  ///   - frequencyBand: whole-hertz drive frequencies, or `nil` (always f0).
  init(
    actuator: ActuatorModel, framePeriod: Double, stopThreshold: Double, resolution: Double,
    frequencyBand: ClosedRange<Int>?
  ) {
    resolutionLevel = resolution
    let alpha = exp(-framePeriod / actuator.driveTimeConstant)
    gain = alpha / (1 - alpha)
    holdDecay = exp(-framePeriod / Self.holdTime)
    let f0 = actuator.resonantFrequency
    let q = actuator.qualityFactor ?? 11
    let w0 = 2 * Double.pi * f0
    omega0 = w0
    quality = q
    resonantHz = f0.rounded()
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

  /// Makes the table entry for `frequency` (rounded to whole Hz, clamped to the band) current.
  @inline(__always)
  mutating func select(_ frequency: Double) {
    guard let band else { return }
    let hz = min(max(Int(frequency.roundedToEven), band.lowerBound), band.upperBound)
    if hz != selectedHz {
      selectedHz = hz
      selected = table[hz - band.lowerBound]
    }
  }

  /// The frequency the last step drove at, in whole hertz (the frame's frequency).
  var frequencyInUse: Double { band == nil ? resonantHz : Double(selectedHz) }

  /// (ω0x)² + ẋ²: the resonator's energy, in units where the envelope is ω0·√energy.
  @inline(__always)
  var energy: Double { (omega0 * x) * (omega0 * x) + v * v }

  /// Vibration amplitude as a fraction of full-scale drive at f0 (exact at resonance).
  var envelope: Double { omega0 * energy.squareRoot() }

  /// True when the resonator is modelled as at rest.
  var isAtRest: Bool {
    @inline(__always) get { x == 0 && v == 0 }
  }

  /// The carrier phasor a frame with non-zero drive would start with.
  @inline(__always)
  var startCarrier: (re: Double, im: Double) { lastSentZero ? (1, 0) : carrier }

  /// Im(c·z) for each component of a complex 2-vector: the response to sin-phase drive.
  @inline(__always)
  static func imag(
    _ c: (re: Double, im: Double), _ z1: (re: Double, im: Double), _ z2: (re: Double, im: Double)
  ) -> (Double, Double) {
    (c.re * z1.im + c.im * z1.re, c.re * z2.im + c.im * z2.re)
  }

  /// The steady orbit state of drive `target` at carrier phasor `c` (selected frequency).
  @inline(__always)
  func orbit(_ target: Double, _ c: (re: Double, im: Double)) -> (Double, Double) {
    let unit = Self.imag(c, selected.h1, selected.h2)
    return (target * unit.0, target * unit.1)
  }

  /// How far the state is from the steady orbit of `target` (> 0: the drive the state settles
  /// on) at the carrier phase the next frame starts with, as (error / band)² in the energy
  /// norm, the band being ``nearLevels`` levels or ``nearFraction`` of the orbit, whichever is
  /// larger (selected frequency); ∞ without a target.
  @inline(__always)
  func distance(_ target: Double) -> Double {
    guard target > 0 else { return .infinity }
    let w2 = omega0 * omega0
    let o = orbit(target, startCarrier)
    let (ex, ev) = (x - o.0, v - o.1)
    let error = w2 * ex * ex + ev * ev
    let size = w2 * o.0 * o.0 + o.1 * o.1
    // Amplitude units: A = ω0·√energy; compare squares without a square root.
    let levels = Self.nearLevels * resolutionLevel / omega0
    return error / max(levels * levels, Self.nearFraction * Self.nearFraction * size)
  }

  /// This frame at the selected frequency: the state it leaves without drive, the state a unit
  /// drive adds (the carrier from its start phase), and the orbit of `reference` at its end.
  @inline(__always)
  func frameReach(toward reference: Double) -> (free: (Double, Double), unit: (Double, Double), goal: (Double, Double)) {
    let start = startCarrier
    let end = (
      start.re * selected.turn.re - start.im * selected.turn.im,
      start.re * selected.turn.im + start.im * selected.turn.re
    )
    return ((phi.a * x + phi.b * v, phi.c * x + phi.d * v), Self.imag(start, selected.r1, selected.r2), orbit(reference, end))
  }

  /// The drive for this frame toward `target` (≥ 0) with `crispness` in 0…1, at the selected
  /// frequency (``select(_:)``), and whether it is the feed-forward of a target the state is
  /// near.
  ///
  /// `reference` is the drive whose orbit the state should settle on: the target's level, or
  /// below ``ditherLevels`` the target itself (the levels around it then alternate).
  ///
  /// Near the target's steady orbit: the feed-forward d + τ·ḋ (between one and two band widths
  /// away, blended into the correction). Otherwise the real drive that
  /// brings the state after the frame closest to the orbit (with a target of 0: the brake
  /// that leaves the least energy, for the free ring at f0), `u = ⟨b, s* − Φs⟩ / ⟨b, b⟩` in the
  /// energy norm, clamped to `[d(1 − c) − c, d + (1 − d)c]`.
  ///
  /// The drive's force also accelerates the mass directly (`u/Q` in these units, whatever the
  /// state): a full-scale frame at an onset or in a brake is felt as a click of its own when the
  /// vibration is weak (0.27 G on `sim-lra` against an intensity-0.5 level of 0.1 G at
  /// 147 Hz). So |u| is also held to ``forceLimit`` × Q × the larger of the vibration's
  /// acceleration now and the target's, and onsets and brakes of weak vibrations take a few
  /// frames more instead of clicking. The vibration's level is the target's acceleration held
  /// with a ``holdTime`` decay (what was just felt), so a brake keeps its force to the end.
  @inline(__always)
  func drive(toward target: Double, orbit reference: Double, crispness: Double) -> (drive: Double, near: Bool) {
    if target <= 0 && energy < stopEnergy { return (0, false) }
    let c = min(max(crispness, 0), 1)
    var upper = target + (1 - target) * c
    var lower = target * (1 - c) - c
    let force = Self.forceLimit * quality * max(heldAcceleration, target * selected.acceleration)
    upper = min(upper, max(force, target))
    lower = max(lower, -force)
    if target <= 0 { return (brakeDrive(limit: min(c, force)), false) }
    let distance = distance(reference)
    let forward = target + gain * (target - previousTarget)
    if distance <= 1 { return (min(max(forward, lower), upper), true) }
    let (free, b, goal) = frameReach(toward: reference)
    let gap = (goal.0 - free.0, goal.1 - free.1)
    let w2 = omega0 * omega0
    let a = w2 * b.0 * b.0 + b.1 * b.1
    var drive = a > 0 ? (w2 * b.0 * gap.0 + b.1 * gap.1) / a : target
    // Just outside the band, blend from the feed-forward into the correction (fully at twice
    // the band): a state that strays a little gets a little correction, not a full kick.
    if distance < 4 {
      let share = distance.squareRoot() - 1
      drive = forward + share * (drive - forward)
    }
    return (min(max(drive, lower), upper), false)
  }

  /// One frame: the drive toward `target`, quantised to a level, and the model advanced with
  /// what was sent. Returns the level; ``lastStepHolds`` tells whether this frame — and every
  /// following one while the target holds — is the target itself (the feed-forward of an
  /// unchanged target the state is near: the state then only closes in on the quantised
  /// drive's orbit).
  ///
  /// Below ``ditherLevels`` levels a steady drive between two levels is sent as a mix of both,
  /// switched when the modelled resonator strays ``ditherTolerance`` from the orbit
  /// (``ditheredLevel(around:reference:levels:)``). The resonator averages them (its
  /// bandwidth, f0/Q, is far below the frame rate), so the bottom
  /// of the intensity range keeps every step: on `sim-lra` rated drive is 64 levels, and the
  /// first 0.05 of intensity asks for 1.7 to 2.1 levels.
  @inline(__always)
  mutating func step(
    toward requested: Double, crispness: Double, frequency: Double, levels: LevelRange, style: Style = .corrected
  ) -> Int {
    select(frequency)
    if style == .abruptStop || requested <= 0 { exitFloor = 0 }
    // Below resonance a falling target falls no faster than ``exitTime`` (to within a level).
    var target = requested
    let exiting = exitFloor > requested + resolutionLevel
    if exiting { target = exitFloor }
    exitFloor = target * selected.exitDecay
    if requested <= 0 && style != .coast { target = glideTarget() } else { glide = nil }
    // A brake runs at f0: with the drive gone the mass rings at its own frequency, and a
    // carrier at another one could only push on it in a drifting phase (below resonance
    // nearly in quadrature with its velocity, where it does almost no work).
    if target <= 0 { select(resonantHz) }
    // A steady low level is dithered; a stop's glide (its target falling each frame) is not.
    let dithers = target > 0 && target < Self.ditherLevels * resolutionLevel && glide == nil
    let reference = dithers ? target : Double(levels.quantize(target)) * resolutionLevel
    // While exiting, the falling target itself: the forced vibration follows it down (a
    // correction toward each shrinking orbit would chatter); the brake then takes the rest.
    let (drive, near) =
      style == .coast
      ? (0, false)
      : exiting || (style == .follow && target > 0)
        ? (target, false) : drive(toward: target, orbit: reference, crispness: crispness)
    var level =
      near && dithers ? ditheredLevel(around: drive, reference: reference, levels: levels) : levels.quantize(drive)
    // A zero frame restarts the board's carrier at phase 0 (protocol §6.5): while the mass is
    // driven, the smallest level of the drive's sign keeps the phase running, so the next
    // frame's correction is not decided against a jumped phase (brakes choose their zero
    // frames, ``brakeDrive(limit:)``).
    if level == 0 && drive != 0 && target > 0 { level = drive > 0 ? 1 : -1 }
    lastStepHolds = near && !dithers && previousTarget == target
    lastLevel = level
    advance(sent: Double(level) * resolutionLevel, target: target)
    return level
  }
}
