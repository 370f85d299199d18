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

  /// The built-in profiles, in the order the CLI lists them.
  public static let builtIn: [BoardProfile] = [simLRA, simERM, unoDRV2605L]

  /// The built-in profile with `id`, if any.
  public static func builtIn(id: String) -> BoardProfile? {
    builtIn.first { $0.id == id }
  }
}
