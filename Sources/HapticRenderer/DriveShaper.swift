import Foundation

/// Host-side overdrive and braking: a first-order model of the actuator's vibration envelope,
/// inverted each frame so the envelope reaches the target as fast as full scale allows.
///
/// The envelope E (in drive units: E = u in steady state) follows `E' = (u − E) / τ` while
/// driven and `E' = −E / τ_coast` with no drive. Each frame the shaper picks the drive u that
/// would bring E to the target d in one frame (a deadbeat controller), clamped to the range
/// crispness allows: at crispness 1 from full reverse drive (a brake) to full scale (overdrive);
/// at crispness 0 exactly d (no shaping: the actuator's own rise and ring-down).
struct DriveShaper: Sendable {
  private let alphaDrive: Double
  private let alphaCoast: Double
  private let stopThreshold: Double
  private let settleBand: Double
  /// The modelled envelope, in fractions of full-scale drive.
  private(set) var envelope = 0.0

  /// - Parameters:
  ///   - actuator: the modelled actuator (its time constants).
  ///   - framePeriod: seconds per frame.
  ///   - stopThreshold: below this envelope (fraction of full scale) the actuator counts as at
  ///     rest once drive stops.
  ///   - resolution: one drive level as a fraction of full scale; within it of the target the
  ///     shaper sends the target itself, so quantisation does not make it dither.
  init(actuator: ActuatorModel, framePeriod: Double, stopThreshold: Double, resolution: Double) {
    alphaDrive = exp(-framePeriod / actuator.driveTimeConstant)
    alphaCoast = exp(-framePeriod / actuator.coastTimeConstant)
    self.stopThreshold = stopThreshold
    settleBand = resolution
  }

  /// True when the actuator is modelled as at rest.
  var isAtRest: Bool { envelope == 0 }

  /// The drive for this frame toward `target` (≥ 0) with `crispness` in 0…1.
  func drive(toward target: Double, crispness: Double) -> Double {
    if target <= 0 && envelope < stopThreshold { return 0 }
    if target > 0 && abs(target - envelope) <= settleBand { return target }
    let c = min(max(crispness, 0), 1)
    let deadbeat = (target - alphaDrive * envelope) / (1 - alphaDrive)
    let upper = target + (1 - target) * c
    let lower = target * (1 - c) - c
    return min(max(deadbeat, lower), upper)
  }

  /// Advances the model one frame with the drive actually sent (after quantisation).
  mutating func advance(sent drive: Double) {
    if drive == 0 {
      envelope *= alphaCoast
    } else {
      envelope = drive + (envelope - drive) * alphaDrive
    }
    if envelope < stopThreshold && drive <= 0 { envelope = 0 }
    if envelope < 0 { envelope = 0 }
  }
}
