/// What a TI DRV2605L drives its actuator with, followed from the register writes its host
/// makes (an emulated board's register trace): the real-time-playback (RTP) level as a fraction
/// of full scale, 0 in standby or any other mode.
///
/// Registers (datasheet SLOS854D §8.6): MODE 0x01 (bit 6 STANDBY, bits 2:0 the mode, 5 = RTP,
/// 0 = internal trigger, 7 = auto-calibration), RTP_INPUT 0x02, WAVESEQ1 0x04, GO 0x0C,
/// CONTROL3 0x1D (bit 3 DATA_FORMAT_RTP: 1 unsigned 0…255, 0 signed −128…127). The chip's
/// closed loop drives an LRA at its resonance, so the drive has no frequency of its own (0: f0).
public struct DRV2605LDrive: Sendable, Hashable {
  /// Register addresses this model follows.
  public enum Register {
    public static let mode: UInt8 = 0x01
    public static let rtpInput: UInt8 = 0x02
    public static let waveSequence1: UInt8 = 0x04
    public static let go: UInt8 = 0x0C
    public static let control3: UInt8 = 0x1D
  }

  /// Something the chip started besides RTP drive (for a trace's events file).
  public enum Operation: Sendable, Hashable {
    /// A ROM library effect (internal trigger + GO), by its number.
    case romEffect(UInt8)
    /// Auto-calibration (mode 7 + GO).
    case calibration
  }

  // Reset values: standby, signed RTP data.
  private var mode: UInt8 = 0x40
  private var control3: UInt8 = 0xA0
  private var rtp: UInt8 = 0
  private var waveSequence1: UInt8 = 1

  /// A chip just out of reset.
  public init() {}

  /// Applies a write of `value` to `register`; returns an operation it started, if any.
  @discardableResult
  public mutating func write(register: UInt8, value: UInt8) -> Operation? {
    switch register {
    case Register.mode: mode = value
    case Register.rtpInput: rtp = value
    case Register.waveSequence1: waveSequence1 = value
    case Register.control3: control3 = value
    case Register.go where value & 1 != 0 && mode & 0x40 == 0:
      switch mode & 0x07 {
      case 0: return .romEffect(waveSequence1 & 0x7F)
      case 7: return .calibration
      default: return nil
      }
    default: break
    }
    return nil
  }

  /// The drive now, as a fraction of full scale (−1…1).
  public var drive: Double {
    guard mode & 0x40 == 0, mode & 0x07 == 5 else { return 0 }
    if control3 & 0x08 != 0 { return Double(rtp) / 255 }
    return Double(Int8(bitPattern: rtp)) / 127
  }
}

/// Replays an emulated DRV2605L board's register trace through the actuator physics: the rows
/// `sim serve --trace` writes (drive and acceleration per physics step), on the emulator's
/// simulated time line.
public struct DRV2605LTraceReplay {
  private var chip = DRV2605LDrive()
  private var physics: ActuatorPhysics
  private let rate: Double
  private var step = 0
  private var drive = 0.0
  /// Register writes that came before a time already replayed (applied late, at the time
  /// reached): 0 for a trace in order.
  public private(set) var writesOutOfOrder = 0

  /// A replay of channel 0 driven by `actuator`, stepped `physicsRate` times a second.
  public init(actuator: ActuatorParameters, physicsRate: Double) {
    physics = ActuatorPhysics(parameters: actuator, stepRate: physicsRate)
    rate = physicsRate
  }

  /// The time replayed so far, seconds.
  public var time: Double { Double(step) / rate }

  /// Steps the physics up to `t` seconds with the drive held, reporting every step to `sink`.
  public mutating func advance(to t: Double, sink: any ServedBoardTrace) {
    while Double(step + 1) / rate <= t + 1e-12 {
      step += 1
      let acceleration = physics.step(level: drive, frequency: 0)
      sink.step(time: Double(step) / rate, channel: 0, drive: drive, acceleration: acceleration)
    }
  }

  /// Replays up to a write at `t` seconds, then applies it; returns an operation it started.
  @discardableResult
  public mutating func write(at t: Double, register: UInt8, value: UInt8, sink: any ServedBoardTrace)
    -> DRV2605LDrive.Operation?
  {
    if t < time - 1 / rate { writesOutOfOrder += 1 }
    advance(to: t, sink: sink)
    let operation = chip.write(register: register, value: value)
    drive = chip.drive
    return operation
  }
}
