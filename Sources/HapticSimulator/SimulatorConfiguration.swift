public import HapticRenderer
public import HapticWire

/// Everything that defines a simulated board: the profile it announces, its actuators'
/// physics, its clock (offset and drift), queue, watchdog and modes.
public struct SimulatorConfiguration: Sendable {
  /// The board profile (channels, frame period, level format, frequency control).
  public var profile: BoardProfile
  /// Physics of each channel's actuator (defaults from the profile).
  public var actuators: [ActuatorParameters]
  /// Report no actuator (capabilities channel kind `none`): the probe must gate haptics off.
  public var noActuator = false
  /// Physics steps per second (≥ 16 × the highest drive frequency).
  public var physicsRate = 16_000.0
  /// Board clock ticks per second.
  public var clockFrequency: UInt32 = 1_000_000
  /// Board clock reading at boot, seconds (so host and board clocks differ).
  public var clockOffset = 0.0
  /// Board clock error in parts per million (positive: the board clock runs fast).
  public var driftPPM = 0.0
  /// Segments each channel's queue holds.
  public var queueDepth = 512
  /// Watchdog timeout at boot, seconds.
  public var watchdog = 0.100
  /// Boot counter at start (it increments on every simulated reset).
  public var bootCount: UInt16 = 1
  /// The serial the board starts with (`identity`, protocol v1.1); 0: none until a host assigns one.
  public var serial: UInt32 = 0
  /// Firmware name announced in capabilities.
  public var firmwareName = "hapticctl-sim"
  /// Firmware version announced in capabilities.
  public var firmwareVersion = "1.0.0"
  /// How long an auto-calibration takes (boards with driver-side shaping), seconds.
  public var calibrationTime = 1.0

  /// A board for `profile` with default physics.
  public init(profile: BoardProfile) {
    self.profile = profile
    actuators = profile.channels.map { ActuatorParameters(model: $0, shaping: profile.shaping) }
  }

  /// Board ticks per frame.
  public var ticksPerFrame: UInt64 {
    UInt64((profile.framePeriod * Double(clockFrequency)).rounded())
  }

  /// Whether the board runs its driver's auto-calibration (closed-loop LRA drivers).
  public var supportsCalibration: Bool {
    !noActuator && profile.shaping == .driver && profile.channels.contains { $0.kind == .lra }
  }

  /// The capabilities the board announces (boot count as given).
  public func capabilities(bootCount: UInt16, watchdog: Double, calibrated: [BoardCapabilities.Calibration])
    -> BoardCapabilities
  {
    var features: BoardCapabilities.Features = []
    if profile.amplitudeSigned || profile.shaping == .driver { features.insert(.braking) }
    features.insert(.overdrive)
    if profile.channels.contains(where: { $0.frequencyControl != nil }) { features.insert(.frequencyControl) }
    if supportsCalibration { features.insert(.calibration) }
    if profile.amplitudeSigned { features.insert(.signedLevels) }
    features.insert(.identity)
    let channels = profile.channels.enumerated().map { index, model in
      let state = index < calibrated.count ? calibrated[index] : .notApplicable
      // A calibrated channel announces the resonance its driver measured (the actuator's own).
      let measured = state == .calibrated && index < actuators.count ? (actuators[index].resonantFrequency * 10).rounded() / 10 : nil
      return BoardCapabilities.Channel(
        kind: noActuator ? .none : (model.kind == .lra ? .lra : .erm),
        resonantFrequency: measured ?? model.resonantFrequency,
        qualityFactor: model.qualityFactor,
        frequencyRange: model.frequencyControl.map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) },
        amplitudeBits: profile.amplitudeBits,
        calibration: state)
    }
    return BoardCapabilities(
      firmwareName: firmwareName, firmwareVersion: firmwareVersion, boardID: profile.id, bootCount: bootCount,
      clockFrequency: clockFrequency, framePeriodMicroseconds: UInt16((profile.framePeriod * 1e6).rounded()),
      queueDepth: UInt16(min(queueDepth, Int(UInt16.max))),
      watchdogMilliseconds: UInt16((watchdog * 1000).rounded()), features: features, channels: channels)
  }

  /// A problem that makes the configuration unusable, if any.
  public var problem: String? {
    if let problem = profile.problem { return problem }
    if actuators.count != profile.channels.count { return "one actuator per channel is required" }
    for (index, actuator) in actuators.enumerated() {
      if let problem = actuator.problem { return "channel \(index): \(problem)" }
    }
    let highest = max(
      profile.channels.compactMap(\.frequencyControl?.upperBound).max() ?? 0, actuators.map(\.resonantFrequency).max() ?? 0)
    if physicsRate < 16 * highest {
      return "physics rate \(Int(physicsRate)) Hz is below 16 × the highest drive frequency (\(Int(highest)) Hz)"
    }
    if ticksPerFrame == 0 { return "the clock is too slow for the frame period" }
    if !(10...5000).contains(Int((watchdog * 1000).rounded())) { return "watchdog must be 10–5000 ms" }
    if queueDepth < 1 { return "queue depth must be positive" }
    return nil
  }
}
