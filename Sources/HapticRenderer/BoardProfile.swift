/// The kind of actuator a channel drives.
public enum ActuatorKind: String, Sendable, Hashable, CaseIterable, Codable {
  /// Linear resonant actuator: a mass on a spring, driven near its resonance.
  case lra = "LRA"
  /// Eccentric rotating mass motor: speed sets both frequency and strength.
  case erm = "ERM"
}

/// Who shapes the drive signal at onsets and stops.
public enum DriveShaping: String, Sendable, Hashable, Codable {
  /// The host renders overdrive at onsets and reverse drive (braking) at stops.
  case host
  /// The driver chip does overdrive and braking itself (e.g. DRV2605L closed loop); the host
  /// sends the target level only.
  case driver
}

/// What the renderer knows about one actuator channel.
public struct ActuatorModel: Sendable, Hashable {
  /// LRA or ERM.
  public var kind: ActuatorKind
  /// LRA: resonant frequency f0 in Hz. ERM: vibration frequency at rated drive.
  public var resonantFrequency: Double
  /// LRA quality factor Q (sharpness of the resonance); `nil` for ERMs.
  public var qualityFactor: Double?
  /// Steady-state acceleration in G at rated drive (at f0 for an LRA).
  public var ratedAcceleration: Double
  /// Rated drive as a fraction of full scale (≤ 1); full scale above it is overdrive headroom.
  public var ratedAmplitude: Double
  /// Envelope time constant in seconds while driven (LRA: Q / (π f0); ERM: spin-up).
  public var driveTimeConstant: Double
  /// Envelope time constant in seconds with no drive (coasting).
  public var coastTimeConstant: Double
  /// ERM: the smallest drive (fraction of full scale) that starts the motor from rest
  /// (stiction, the break-away level); 0 for an LRA.
  public var startLevel: Double
  /// The usable drive-frequency range of this channel in Hz, or `nil` when its drive has no
  /// frequency (amplitude only: an ERM, a closed-loop driver).
  public var frequencyControl: ClosedRange<Double>?

  /// Creates an actuator model. `startLevel` defaults to 0.3 × the rated amplitude for an ERM
  /// (a typical coin motor's break-away voltage) and 0 for an LRA.
  public init(
    kind: ActuatorKind, resonantFrequency: Double, qualityFactor: Double?,
    ratedAcceleration: Double, ratedAmplitude: Double, driveTimeConstant: Double,
    coastTimeConstant: Double, startLevel: Double? = nil, frequencyControl: ClosedRange<Double>? = nil
  ) {
    self.frequencyControl = frequencyControl
    self.startLevel = startLevel ?? (kind == .erm ? 0.3 * ratedAmplitude : 0)
    self.kind = kind
    self.resonantFrequency = resonantFrequency
    self.qualityFactor = qualityFactor
    self.ratedAcceleration = ratedAcceleration
    self.ratedAmplitude = ratedAmplitude
    self.driveTimeConstant = driveTimeConstant
    self.coastTimeConstant = coastTimeConstant
  }

  /// An LRA with the envelope time constant of a driven resonator, τ = Q / (π f0).
  public static func lra(
    f0: Double, q: Double, ratedAcceleration: Double, ratedAmplitude: Double
  ) -> ActuatorModel {
    let tau = q / (Double.pi * f0)
    return ActuatorModel(
      kind: .lra, resonantFrequency: f0, qualityFactor: q, ratedAcceleration: ratedAcceleration,
      ratedAmplitude: ratedAmplitude, driveTimeConstant: tau, coastTimeConstant: tau)
  }
}

/// Everything the renderer must target on a board: actuators, frame period, amplitude format,
/// frequency control and who does overdrive/braking. A plain value; boards load it from files.
public struct BoardProfile: Sendable, Hashable, Identifiable {
  /// Stable identifier (e.g. `sim-lra`).
  public var id: String
  /// Human-readable name.
  public var name: String
  /// One model per actuator channel, each with its own frequency control (or none).
  public var channels: [ActuatorModel]
  /// The usable drive-frequency range of the first channel that has one, or `nil` when no
  /// channel has frequency control (amplitude-only boards). Setting it gives every channel that
  /// range (a board-wide setting, as a profile's initializer takes it).
  public var frequencyControl: ClosedRange<Double>? {
    get { channels.lazy.compactMap(\.frequencyControl).first }
    set { for index in channels.indices { channels[index].frequencyControl = newValue } }
  }
  /// Seconds per frame (default 1 ms).
  public var framePeriod: Double
  /// Bits of amplitude resolution, sign bit included when ``amplitudeSigned``.
  public var amplitudeBits: Int
  /// True when negative drive (reverse drive, braking) can be sent.
  public var amplitudeSigned: Bool
  /// Who renders overdrive and braking.
  public var shaping: DriveShaping

  /// Creates a profile. A `frequencyControl` range applies to every channel (channels keep their
  /// own when it is nil); a board with channels of different ranges sets each channel's.
  public init(
    id: String, name: String, channels: [ActuatorModel], frequencyControl: ClosedRange<Double>?,
    framePeriod: Double = 0.001, amplitudeBits: Int, amplitudeSigned: Bool, shaping: DriveShaping
  ) {
    self.id = id
    self.name = name
    self.channels = channels
    self.framePeriod = framePeriod
    self.amplitudeBits = amplitudeBits
    self.amplitudeSigned = amplitudeSigned
    self.shaping = shaping
    if let frequencyControl { self.frequencyControl = frequencyControl }
  }

  /// The largest amplitude level: 127 for signed 8-bit, 255 for unsigned 8-bit.
  public var maxLevel: Int {
    amplitudeSigned ? (1 << (amplitudeBits - 1)) - 1 : (1 << amplitudeBits) - 1
  }

  /// The smallest level: `-maxLevel` when signed, else 0.
  public var minLevel: Int { amplitudeSigned ? -maxLevel : 0 }

  /// Bytes per level in segment batches (docs/protocol.md §6.5): 1 when every level fits an
  /// `i8` (signed boards up to 8 bits, unsigned up to 7), else 2 — so an unsigned 8-bit board
  /// (0…255) gets 2-byte levels.
  public var levelBytes: Int { maxLevel <= 127 ? 1 : 2 }

  /// Why the profile cannot be rendered, or `nil` when it can.
  public var problem: String? {
    if channels.isEmpty { return "the board has no actuator channels" }
    if !(framePeriod >= 0.0001 && framePeriod <= 0.1) {
      return "frame period \(framePeriod) s is outside 0.1 ms…100 ms"
    }
    if !(2...16).contains(amplitudeBits) { return "amplitude bits \(amplitudeBits) is outside 2…16" }
    for (index, channel) in channels.enumerated() {
      if let band = channel.frequencyControl, !(band.lowerBound > 0 && band.upperBound < 5000) {
        return "channel \(index): frequency control \(band) is outside (0, 5000) Hz"
      }
    }
    if shaping == .host && !amplitudeSigned {
      return "host braking needs a signed amplitude (reverse drive)"
    }
    for (index, channel) in channels.enumerated() {
      let isLRA = channel.kind == .lra
      if !(channel.resonantFrequency > 0 && channel.resonantFrequency < 5000) {
        return "channel \(index): frequency \(channel.resonantFrequency) Hz is out of range"
      }
      if isLRA && !((channel.qualityFactor ?? 0) > 0) { return "channel \(index): an LRA needs Q > 0" }
      if !(channel.ratedAcceleration > 0) { return "channel \(index): rated acceleration must be > 0" }
      if !(channel.ratedAmplitude > 0 && channel.ratedAmplitude <= 1) {
        return "channel \(index): rated amplitude must be in (0, 1]"
      }
      if !(channel.driveTimeConstant > 0 && channel.coastTimeConstant > 0) {
        return "channel \(index): time constants must be > 0"
      }
      if !(channel.startLevel >= 0 && channel.startLevel <= channel.ratedAmplitude) {
        return "channel \(index): the start level must be in [0, the rated amplitude]"
      }
    }
    return nil
  }
}
