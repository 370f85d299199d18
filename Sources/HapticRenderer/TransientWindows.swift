import Foundation

/// How long a transient drives, and toward what, by sharpness (docs/semantics.md §15.7).
///
/// LRA with a sharpness band (the host shapes its drive): 2.6 − 1.3 × sharpness cycles (2.6 to
/// 1.3) of the resonant frequency (transients drive at f0, see ``frequency(sharpness:)``), at
/// least 4 ms, toward ``target(_:sharpness:)``: part of the intensity's steady level. A sharp click (1)
/// is 1.3 cycles of the hardest onset the drive allows, still rising when the brake takes it:
/// it peaks within 1.5 cycles and stops at once. A round click (0) asks for 0.7 of the level,
/// which the same onset reaches in about 1.4 cycles, and holds it for another 1.2 before the
/// brake: about the same strength, felt longer (20 against 14 ms above a tenth of the peak on
/// `sim-lra`). An amplitude-only LRA (a closed-loop driver
/// such as the DRV2605L, whose own loop shapes the burst): 1.5 − 0.2 × sharpness cycles at the
/// full level.
///
/// ERM: 60 ms at sharpness 0 down to 25 ms at 1 (a motor needs drive time to spin up at all),
/// toward at most the speed the board's brake stops within ``ermStopSeconds``
/// (``ermLimit``).
struct TransientWindows: Sendable {
  let kind: ActuatorKind
  let map: PerceptualMap
  /// The largest acceleration (G) an ERM transient asks for (∞ on an LRA).
  let ermLimit: Double

  /// How long an ERM click may take to stop after its drive, modelled (the simulated motor
  /// takes up to 1 ms more: within 15 ms).
  static let ermStopSeconds = 0.014

  /// - Parameters:
  ///   - kind: the actuator's kind; `map`: its perceptual map.
  ///   - brakes: whether the board drives an ERM in reverse (signed drive, host-shaped).
  init(kind: ActuatorKind, map: PerceptualMap, brakes: Bool) {
    self.kind = kind
    self.map = map
    ermLimit = kind == .erm ? Self.ermLimit(map.actuator, brakes: brakes) : .infinity
  }

  /// The steady acceleration from which a full brake (reverse full scale, or coasting on a
  /// board without reverse drive) brings the first-order speed model
  /// (``DriveShaper``: E' = (u − E)/τ) below the detection threshold within ``ermStopSeconds``.
  /// `uno-hbridge`'s ERM (rated 0.6 of full scale, τ 50 ms) reached 0.94 G in a round click
  /// and rang 18.5 ms after it; capped at 0.57 G it stops in 14 ms.
  static func ermLimit(_ actuator: ActuatorModel, brakes: Bool) -> Double {
    let rated = actuator.ratedAmplitude
    // The speed (drive units) whose vibration is at the threshold: acceleration ∝ speed².
    let threshold = DetectionThreshold.acceleration(at: actuator.resonantFrequency)
    let felt = rated * (threshold / actuator.ratedAcceleration).squareRoot()
    let speed =
      brakes
      ? (1 + felt) * exp(ermStopSeconds / actuator.driveTimeConstant) - 1
      : felt * exp(ermStopSeconds / actuator.coastTimeConstant)
    let ratio = min(speed / rated, 1 / rated)
    return actuator.ratedAcceleration * ratio * ratio
  }

  /// The window in seconds for `sharpness` (clamped to 0…1).
  func seconds(sharpness: Double) -> Double {
    let s = min(max(sharpness, 0), 1)
    switch kind {
    case .lra:
      let cycles = map.band == nil ? 1.5 - 0.2 * s : 2.6 - 1.3 * s
      return max(cycles / map.actuator.resonantFrequency, 0.004)
    case .erm: return 0.060 - 0.035 * s
    }
  }

  /// The acceleration (G) a transient asks for, from its intensity's steady `acceleration`: on
  /// an LRA with a sharpness band 0.7 + 0.3 × sharpness³ of it (a round click holds a level
  /// its onset reaches; a sharp one is cut while still rising toward the full level), on an
  /// ERM at most ``ermLimit``, elsewhere all of it.
  func target(_ acceleration: Double, sharpness: Double) -> Double {
    let s = min(max(sharpness, 0), 1)
    switch kind {
    case .lra: return map.band == nil ? acceleration : acceleration * (0.7 + 0.3 * s * s * s)
    case .erm: return min(acceleration, ermLimit)
    }
  }

  /// The drive frequency of a transient: an LRA's resonant frequency whatever the sharpness.
  /// A one-to-two-cycle burst is felt through the resonator's own ringing at f0; driven off
  /// resonance it builds a fraction of the amplitude and cannot be braked cleanly (a free
  /// ring-down at f0 drifts in phase against reverse drive at another frequency). Sharpness
  /// shapes a transient through its length and level instead. ERMs and amplitude-only boards:
  /// the map's frequency as for any event.
  func frequency(sharpness: Double) -> Double {
    kind == .lra ? map.actuator.resonantFrequency : map.frequency(sharpness: sharpness)
  }
}
