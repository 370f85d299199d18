import Foundation
import HapticRenderer

/// One actuator integrated at a fixed time step, independent of any wall clock.
///
/// The LRA uses the exact discretisation of the linear oscillator for a drive held over each
/// step (zero-order hold), so its resonance and decay rate carry no integration error at any
/// step size; only the drive waveform is sampled. The ERM is a first-order speed model with
/// stiction, integrated exactly per step as well.
public struct ActuatorPhysics: Sendable {
  /// The parameters in use.
  public let parameters: ActuatorParameters
  /// Seconds per step.
  public let timeStep: Double

  // LRA state: displacement x (G·s²) and velocity v (G·s), so that ẍ is in G.
  private var x = 0.0
  private var v = 0.0
  private let omega0: Double
  private let damping: Double  // ω0 / Q
  private let gain: Double
  private let phi11, phi12, phi21, phi22, gamma1, gamma2: Double
  // Drive oscillator phase (cycles, 0..<1) for open-loop drive and the ERM's vibration.
  private var phase = 0.0
  private var previousLevel = 0.0
  // ERM: speed as a fraction of the speed at full-scale drive.
  private var speed = 0.0
  private let alphaDrive, alphaCoast: Double

  /// Creates a resting actuator integrated at `stepRate` steps per second.
  public init(parameters: ActuatorParameters, stepRate: Double) {
    self.parameters = parameters
    timeStep = 1 / stepRate
    let w0 = 2 * Double.pi * parameters.resonantFrequency
    omega0 = w0
    damping = w0 / parameters.qualityFactor
    gain = parameters.gain
    // e^{A·dt} for A = [[0, 1], [−ω0², −ω0/Q]] (underdamped), and Γ = A⁻¹(Φ − I)·[0, g].
    let zeta = 1 / (2 * parameters.qualityFactor)
    let sigma = zeta * w0
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    let decay = exp(-sigma * timeStep)
    let c = cos(wd * timeStep)
    let s = sin(wd * timeStep)
    phi11 = decay * (c + sigma / wd * s)
    phi12 = decay * s / wd
    phi21 = -decay * w0 * w0 / wd * s
    phi22 = decay * (c - sigma / wd * s)
    gamma1 = gain * (1 - phi22 - 2 * zeta * w0 * phi12) / (w0 * w0)
    gamma2 = gain * phi12
    alphaDrive = exp(-timeStep / parameters.driveTimeConstant)
    alphaCoast = exp(-timeStep / parameters.coastTimeConstant)
  }

  /// Advances one step with drive `level` (fraction of full scale, −1…1; negative = reverse or
  /// anti-phase) at `frequency` Hz (LRA open loop; 0 = at f0); returns the acceleration in G.
  public mutating func step(level: Double, frequency: Double) -> Double {
    switch parameters.kind {
    case .lra: return stepLRA(level: level, frequency: frequency)
    case .erm: return stepERM(level: level)
    }
  }

  /// LRA: the vibration amplitude in G as the oscillator's energy sees it (exact at f0).
  public var lraEnvelope: Double {
    omega0 * ((omega0 * x) * (omega0 * x) + v * v).squareRoot()
  }

  /// ERM: rotor speed as a fraction of the speed at full-scale drive (negative = reversed).
  public var motorSpeed: Double { speed }

  /// The vibration's amplitude now, G: an LRA's ``lraEnvelope``, an ERM's acceleration at its
  /// present speed (what a display of the felt level draws).
  public var envelope: Double {
    switch parameters.kind {
    case .lra: return lraEnvelope
    case .erm:
      let relative = speed / parameters.ratedAmplitude
      return parameters.ratedAcceleration * relative * relative
    }
  }

  /// True when the actuator is (numerically) at rest.
  public var isAtRest: Bool {
    parameters.kind == .lra ? lraEnvelope < 1e-6 : speed == 0
  }

  /// Advances one step of an LRA driven by the instantaneous drive `u` (fraction of full
  /// scale, −1…1: e.g. a PWM bridge's average output over the step, whose carrier the board
  /// synthesizes itself); returns the acceleration in G. An ERM takes `u` as its level.
  public mutating func step(instantaneousDrive u: Double) -> Double {
    guard parameters.kind == .lra else { return stepERM(level: u) }
    return integrateLRA(drive: u)
  }

  private mutating func stepLRA(level: Double, frequency: Double) -> Double {
    let u: Double
    switch parameters.drive {
    case .openLoop:
      // The carrier restarts at phase 0 when drive resumes after a zero frame (protocol §6.5),
      // so the host knows the waveform it shapes.
      if level != 0 && previousLevel == 0 { phase = 0 }
      previousLevel = level
      let f = frequency > 0 ? frequency : parameters.resonantFrequency
      // Sample the sine at the middle of the step (the hold then has no net phase lag).
      let mid = phase + 0.5 * f * timeStep
      u = level == 0 ? 0 : level * sin(2 * Double.pi * mid)
      phase = (phase + f * timeStep).truncatingRemainder(dividingBy: 1)
    case .closedLoop(let clamp):
      u = closedLoopDrive(target: max(level, 0), clamp: clamp)
    }
    return integrateLRA(drive: u)
  }

  /// The oscillator over one step with drive `u` held (zero-order hold).
  private mutating func integrateLRA(drive u: Double) -> Double {
    let nx = phi11 * x + phi12 * v + gamma1 * u
    let nv = phi21 * x + phi22 * v + gamma2 * u
    x = nx
    v = nv
    return -omega0 * omega0 * x - damping * v + gain * u
  }

  /// The DRV2605L-style loop: it measures the vibration amplitude through back-EMF (here the
  /// oscillator's energy), drives in phase with the velocity with a magnitude that closes the
  /// gap to the target fast (proportional gain 8), clamped to ±`clamp`; a negative magnitude is
  /// anti-phase drive, i.e. braking. Below 0.5 % of rated amplitude with no target it idles.
  private mutating func closedLoopDrive(target: Double, clamp: Double) -> Double {
    let perUnit = gain * parameters.qualityFactor  // steady-state G per unit drive at f0
    let amplitude = lraEnvelope / perUnit  // in drive units
    if target == 0 && amplitude < 0.005 * parameters.ratedAmplitude { return 0 }
    let magnitude = min(max(target + 8 * (target - amplitude), -clamp), clamp)
    let speedNorm = ((omega0 * x) * (omega0 * x) + v * v).squareRoot()
    if speedNorm < 1e-12 {
      // At rest: start the resonator with the driver's own oscillator at f0.
      phase = (phase + parameters.resonantFrequency * timeStep).truncatingRemainder(dividingBy: 1)
      return magnitude * sin(2 * Double.pi * phase)
    }
    return magnitude * v / speedNorm
  }

  private mutating func stepERM(level: Double) -> Double {
    if level == 0 {
      speed *= alphaCoast
      if abs(speed) < 1e-6 { speed = 0 }
    } else if speed == 0 && abs(level) < parameters.startThreshold {
      // Stiction: too little drive to start a motor at rest.
    } else {
      speed = level + (speed - level) * alphaDrive
    }
    let relative = speed / parameters.ratedAmplitude
    let frequency = parameters.resonantFrequency * abs(relative)
    phase = (phase + frequency * timeStep).truncatingRemainder(dividingBy: 1)
    return parameters.ratedAcceleration * relative * relative * sin(2 * Double.pi * phase)
  }
}
