import Foundation

/// Host-side overdrive and braking: a first-order model of the actuator's vibration envelope,
/// inverted each frame so the envelope follows the target as fast as full scale allows.
///
/// The envelope E (in drive units: E = u in steady state) follows `E' = (u − E) / τ` while
/// driven and `E' = −E / τ_coast` with no drive. When E is far from the target d (an onset, a
/// stop, a step) the shaper sends the drive that would bring E to d in one frame (a deadbeat
/// controller), clamped to what crispness allows: at crispness 1 from full reverse drive (a
/// brake) to full scale (overdrive); at crispness 0 exactly d (the actuator's own rise and
/// ring-down). Near the target it sends the feed-forward d + τ·ḋ, which follows smooth ramps
/// without amplifying quantisation noise into flicker.
///
/// An ERM must also break away from rest: while the modelled speed is below both the target
/// and the motor's start level (``ActuatorModel/startLevel``), the drive is at least
/// ``kickMargin`` × that level, so an intensity whose steady drive is below break-away still
/// starts the motor, at any crispness.
struct DriveShaper: Sendable {
  private let alphaDrive: Double
  private let alphaCoast: Double
  private let stopThreshold: Double
  /// One level as a fraction of full scale (within three of them the shaper feeds forward).
  let resolutionLevel: Double
  /// α / (1 − α): the deadbeat and feed-forward gain (≈ τ / T).
  private let gain: Double
  /// The modelled envelope, in fractions of full-scale drive (an LRA's exact model resets it
  /// after a brake).
  var envelope = 0.0
  /// The target of the previous frame, to tell a steady target from a moving one.
  private var previousTarget = 0.0
  /// ERM: the drive that starts the motor from rest, with a margin (0: no stiction).
  private let kick: Double
  /// ERM: the break-away level (fraction of full scale).
  private let startLevel: Double

  /// - Parameters:
  ///   - actuator: the modelled actuator (its time constants).
  ///   - framePeriod: seconds per frame.
  ///   - stopThreshold: below this envelope (fraction of full scale) the actuator counts as at
  ///     rest once drive stops.
  ///   - resolution: one drive level as a fraction of full scale; within three levels of the
  ///     target the shaper uses feed-forward instead of the deadbeat correction.
  init(actuator: ActuatorModel, framePeriod: Double, stopThreshold: Double, resolution: Double) {
    alphaDrive = exp(-framePeriod / actuator.driveTimeConstant)
    alphaCoast = exp(-framePeriod / actuator.coastTimeConstant)
    self.stopThreshold = stopThreshold
    resolutionLevel = resolution
    gain = alphaDrive / (1 - alphaDrive)
    startLevel = actuator.startLevel
    kick = min(Self.kickMargin * actuator.startLevel, 1)
  }

  /// The start kick as a multiple of the break-away level.
  static let kickMargin = 1.25

  /// True when the actuator is modelled as at rest.
  var isAtRest: Bool {
    @inline(__always) get { envelope == 0 }
  }

  /// The drive for this frame toward `target` (≥ 0) with `crispness` in 0…1.
  @inline(__always)
  func drive(toward target: Double, crispness: Double) -> Double {
    if target <= 0 && envelope < stopThreshold { return 0 }
    let c = min(max(crispness, 0), 1)
    let upper = target + (1 - target) * c
    let lower = target * (1 - c) - c
    // Near the target: feed-forward d + τ·ḋ. Far from it: deadbeat d + τ/T·(d − E).
    let nearTarget = isNear(target)
    let drive = nearTarget
      ? target + gain * (target - previousTarget) : target + gain * (target - envelope)
    let clamped = min(max(drive, lower), upper)
    // Stiction: spinning up from below the break-away level, at least the kick (whatever the
    // crispness: a gentler drive would not start the motor at all).
    return kicks(target) ? max(clamped, kick) : clamped
  }

  /// Whether the motor is spinning up from below its break-away level toward `target` (and is
  /// not yet within the feed-forward range of it, so a frame that holds never kicks).
  @inline(__always)
  private func kicks(_ target: Double) -> Bool {
    target > 0 && envelope < target && envelope < startLevel && !isNear(target)
  }

  /// Whether this frame's drive toward `target` is `target` itself (feed-forward of a target
  /// that did not move) — and so is every following frame's while the target holds: the
  /// envelope then only closes in on the quantised drive, staying within three levels.
  @inline(__always)
  func holds(_ target: Double) -> Bool {
    previousTarget == target && isNear(target)
  }

  /// Whether the envelope is within three levels of a positive `target` (feed-forward range).
  @inline(__always)
  private func isNear(_ target: Double) -> Bool {
    target > 0 && abs(target - envelope) <= 3 * resolutionLevel
  }

  /// Advances the model one frame with the drive actually sent (after quantisation) toward
  /// `target`.
  @inline(__always)
  mutating func advance(sent drive: Double, target: Double) {
    previousTarget = target
    if drive == 0 {
      envelope *= alphaCoast
    } else {
      envelope = drive + (envelope - drive) * alphaDrive
    }
    if envelope < stopThreshold && drive <= 0 { envelope = 0 }
    if envelope < 0 { envelope = 0 }
  }
}

extension DriveShaper {
  /// One frame: the drive toward `target`, quantised to a level, and the model advanced with
  /// what was sent. Returns the level.
  @inline(__always)
  mutating func step(toward target: Double, crispness: Double, levels: LevelRange) -> Int {
    let level = levels.quantize(drive(toward: target, crispness: crispness))
    advance(sent: Double(level) * resolutionLevel, target: target)
    return level
  }
}
