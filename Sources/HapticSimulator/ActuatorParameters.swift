public import HapticRenderer

/// The physical constants of one simulated actuator (docs/semantics.md §12 lists the defaults
/// and where they come from: ../shared/reference/actuators.md).
///
/// Acceleration is in G throughout. The LRA is the second-order model
/// `m·ẍ + c·ẋ + k·x = Bl·u` with `ω0 = √(k/m)` and `Q = m·ω0/c`; the ERM is a first-order DC
/// motor whose speed sets both the vibration frequency and (as speed²) its amplitude.
public struct ActuatorParameters: Sendable, Hashable {
  /// How the driver applies the drive level to the actuator.
  public enum Drive: Sendable, Hashable {
    /// The level is the drive amplitude, applied as a sine at the commanded frequency (or f0);
    /// negative levels drive in anti-phase (braking).
    case openLoop
    /// A closed-loop driver (the DRV2605L's auto-resonance): the level is the target vibration
    /// amplitude; the driver pushes in phase with the measured velocity (always at resonance),
    /// overdrives toward the target and brakes in anti-phase, up to `overdriveClamp` of full scale.
    case closedLoop(overdriveClamp: Double)
  }

  /// LRA or ERM.
  public var kind: ActuatorKind
  /// LRA: resonant frequency f0 (Hz). ERM: vibration frequency at rated drive.
  public var resonantFrequency: Double
  /// LRA quality factor Q (ignored for an ERM).
  public var qualityFactor: Double
  /// LRA: the moving mass in kg (ERM: the eccentric mass); with `forceFactor` it sets the gain.
  public var movingMass: Double
  /// LRA: force in newtons per unit of drive (full scale = 1), i.e. Bl·V/R.
  public var forceFactor: Double
  /// Steady-state peak acceleration in G at rated drive (at f0 for an LRA).
  public var ratedAcceleration: Double
  /// Rated drive as a fraction of full scale.
  public var ratedAmplitude: Double
  /// ERM: speed time constant while driven (forward or reverse), seconds.
  public var driveTimeConstant: Double
  /// ERM: speed time constant while coasting (no drive), seconds.
  public var coastTimeConstant: Double
  /// ERM: the smallest drive (fraction of full scale) that starts a motor at rest (stiction).
  public var startThreshold: Double
  /// How levels become force.
  public var drive: Drive

  /// Standard gravity, m/s² per G.
  public static let standardGravity = 9.80665

  /// The defaults for a renderer channel model: an LRA gets a 1.2 g moving mass and the force
  /// factor that yields `ratedAcceleration` at rated drive in steady state at f0; an ERM gets the
  /// model's start level (by default 0.3 × rated drive) as its stiction threshold. `shaping == .driver` selects the closed-loop drive
  /// (overdrive clamp 1.5 × rated, as OD_CLAMP 3.0 V over a 2.0 Vrms rating).
  public init(model: ActuatorModel, shaping: DriveShaping) {
    kind = model.kind
    resonantFrequency = model.resonantFrequency
    qualityFactor = model.qualityFactor ?? 11
    movingMass = 0.0012
    ratedAcceleration = model.ratedAcceleration
    ratedAmplitude = model.ratedAmplitude
    // Steady state at resonance: peak acceleration = (Bl·u / m) · Q.
    forceFactor =
      model.ratedAcceleration * Self.standardGravity * 0.0012 / (qualityFactor * model.ratedAmplitude)
    driveTimeConstant = model.driveTimeConstant
    coastTimeConstant = model.coastTimeConstant
    startThreshold = model.startLevel
    drive = shaping == .driver ? .closedLoop(overdriveClamp: 1.5 * model.ratedAmplitude) : .openLoop
  }

  /// LRA: acceleration in G per unit of drive force input (`Bl / m / g0`).
  public var gain: Double { forceFactor / movingMass / Self.standardGravity }

  /// LRA: the envelope time constant 2Q/ω0 in seconds.
  public var envelopeTimeConstant: Double { qualityFactor / (Double.pi * resonantFrequency) }

  /// A problem that makes the parameters unusable, if any.
  public var problem: String? {
    if !(resonantFrequency > 0 && resonantFrequency.isFinite) { return "resonant frequency must be positive" }
    if kind == .lra && !(qualityFactor > 0.5 && qualityFactor.isFinite) { return "Q must be above 0.5" }
    if kind == .lra && !(movingMass > 0 && forceFactor > 0) { return "moving mass and force factor must be positive" }
    if !(ratedAmplitude > 0 && ratedAmplitude <= 1) { return "rated amplitude must be in (0, 1]" }
    if kind == .erm && !(driveTimeConstant > 0 && coastTimeConstant > 0) { return "ERM time constants must be positive" }
    return nil
  }
}
