extension BoardProfile {
  /// The simulated LRA board: f0 170 Hz, Q 11, 80–300 Hz frequency control, 1 kHz frames,
  /// signed 8-bit, host overdrive and braking. Rated drive (1.5 G) is half of full scale.
  public static let simLRA = BoardProfile(
    id: "sim-lra", name: "Simulated LRA (170 Hz, frequency control)",
    channels: [.lra(f0: 170, q: 11, ratedAcceleration: 1.5, ratedAmplitude: 0.5)],
    frequencyControl: 80...300, framePeriod: 0.001, amplitudeBits: 8, amplitudeSigned: true,
    shaping: .host)

  /// The simulated ERM board: amplitude only, 1 kHz frames, signed 8-bit, reverse drive brakes.
  /// 200 Hz and 1.0 G at rated drive (0.75 of full scale), spin-up τ 50 ms, coast τ 80 ms.
  public static let simERM = BoardProfile(
    id: "sim-erm", name: "Simulated ERM (coin motor)",
    channels: [
      ActuatorModel(
        kind: .erm, resonantFrequency: 200, qualityFactor: nil, ratedAcceleration: 1.0,
        ratedAmplitude: 0.75, driveTimeConstant: 0.050, coastTimeConstant: 0.080)
    ],
    frequencyControl: nil, framePeriod: 0.001, amplitudeBits: 8, amplitudeSigned: true,
    shaping: .host)

  /// Arduino Uno + DRV2605L in closed-loop RTP mode: amplitude only (the chip tracks resonance
  /// and does overdrive and braking), 1 kHz frames, unsigned 8-bit (0 = none, 255 = rated).
  public static let unoDRV2605L = BoardProfile(
    id: "uno-drv2605l", name: "Arduino Uno + DRV2605L (LRA, closed-loop RTP)",
    channels: [.lra(f0: 175, q: 11, ratedAcceleration: 1.5, ratedAmplitude: 1)],
    frequencyControl: nil, framePeriod: 0.001, amplitudeBits: 8, amplitudeSigned: false,
    shaping: .driver)

  /// Arduino Uno + DRV8833 dual H-bridge, host-shaped, signed 8-bit, 1 kHz frames: channel 0 an
  /// ERM on signed PWM (3 V rated of the 5 V supply, 200 Hz, 1.0 G, τ 50/80 ms), channel 1 an
  /// LRA on a synthesized sine carrier (170 Hz, Q 11, 1.8 V rms rated of 3.5, 80–300 Hz).
  public static let unoHBridge: BoardProfile = {
    var lra = ActuatorModel.lra(f0: 170, q: 11, ratedAcceleration: 1.5, ratedAmplitude: 1.8 / 3.5)
    lra.frequencyControl = 80...300
    let erm = ActuatorModel(
      kind: .erm, resonantFrequency: 200, qualityFactor: nil, ratedAcceleration: 1.0,
      ratedAmplitude: 3.0 / 5.0, driveTimeConstant: 0.050, coastTimeConstant: 0.080)
    return BoardProfile(
      id: "uno-hbridge", name: "Arduino Uno + DRV8833 H-bridge (ERM + LRA, PWM)", channels: [erm, lra],
      frequencyControl: nil, framePeriod: 0.001, amplitudeBits: 8, amplitudeSigned: true, shaping: .host)
  }()

  /// The built-in profiles, in the order the CLI lists them.
  public static let builtIn: [BoardProfile] = [simLRA, simERM, unoDRV2605L, unoHBridge]

  /// The built-in profile with `id`, if any.
  public static func builtIn(id: String) -> BoardProfile? {
    builtIn.first { $0.id == id }
  }
}
