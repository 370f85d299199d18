public import HapticRenderer

/// A kind of board driver: how its levels reach the actuator. It decides the renderer's drive
/// shaping and level format and adds its own checks on a board file. Every family is listed in
/// ``DriverFamilies/all``; a board file names one in `driver`.
public protocol DriverFamily: Sendable {
  /// The name board files use.
  static var name: String { get }
  /// One line on what it is.
  static var summary: String { get }
  /// Who shapes overdrive and braking.
  static var shaping: DriveShaping { get }
  /// Problems specific to this family (field paths as in ``BoardFileError``).
  static func problems(_ file: BoardFile) -> [BoardFileError.Problem]
  /// Rated drive as a fraction of full scale for a channel.
  static func ratedAmplitude(_ channel: BoardFile.Channel) -> Double
}

/// The registry of driver families.
public enum DriverFamilies {
  /// Every family hapticctl knows.
  public static let all: [any DriverFamily.Type] = [SimulatorDriver.self, DRV2605LRTPDriver.self, PWMHBridgeDriver.self, PWMHBridgeERMDriver.self]

  /// The family called `name`, if any.
  public static func named(_ name: String) -> (any DriverFamily.Type)? {
    all.first { $0.name == name }
  }
}

/// The in-process/pty board simulator: signed levels, the host shapes overdrive and braking,
/// full scale is the overdrive voltage.
public enum SimulatorDriver: DriverFamily {
  public static let name = "simulator"
  public static let summary = "hapticctl's simulated board (host-shaped, signed levels, LRA or ERM)"
  public static let shaping = DriveShaping.host

  public static func problems(_ file: BoardFile) -> [BoardFileError.Problem] {
    file.levels.signed ? [] : [.init("levels.signed", "the simulator driver uses signed levels (reverse drive brakes)")]
  }

  public static func ratedAmplitude(_ channel: BoardFile.Channel) -> Double {
    channel.ratedVoltage / channel.overdriveVoltage
  }
}

/// A TI DRV2605L in closed-loop real-time playback: one actuator, unsigned 8-bit levels
/// (255 = the rated voltage), the chip tracks resonance and does overdrive and braking itself.
public enum DRV2605LRTPDriver: DriverFamily {
  public static let name = "drv2605l-rtp"
  public static let summary = "TI DRV2605L in closed-loop RTP mode (driver-shaped, unsigned 8-bit, one actuator)"
  public static let shaping = DriveShaping.driver

  public static func problems(_ file: BoardFile) -> [BoardFileError.Problem] {
    var problems: [BoardFileError.Problem] = []
    if file.channels.count != 1 { problems.append(.init("channels", "a DRV2605L drives exactly one actuator")) }
    if file.levels.bits != 8 || file.levels.signed {
      problems.append(.init("levels", "DRV2605L real-time playback takes unsigned 8-bit levels"))
    }
    if file.frequencyControlHz != nil || file.channels.contains(where: { $0.frequencyControlHz != nil }) {
      problems.append(.init("frequencyControlHz", "closed-loop RTP has no frequency control (the chip tracks resonance)"))
    }
    return problems
  }

  public static func ratedAmplitude(_ channel: BoardFile.Channel) -> Double { 1 }
}

/// A PWM H-bridge driving ERMs: signed levels (reverse drive brakes), host-shaped.
public enum PWMHBridgeERMDriver: DriverFamily {
  public static let name = "pwm-hbridge-erm"
  public static let summary = "PWM H-bridge driving coin/ERM motors (host-shaped, signed levels)"
  public static let shaping = DriveShaping.host

  public static func problems(_ file: BoardFile) -> [BoardFileError.Problem] {
    var problems: [BoardFileError.Problem] = []
    for (index, channel) in file.channels.enumerated() where channel.actuator != "erm" {
      problems.append(.init("channels[\(index)].actuator", "an H-bridge ERM driver drives ERMs only"))
    }
    if !file.levels.signed { problems.append(.init("levels.signed", "an H-bridge brakes with reverse drive: signed levels")) }
    if file.frequencyControlHz != nil { problems.append(.init("frequencyControlHz", "an ERM's frequency follows its speed")) }
    return problems
  }

  public static func ratedAmplitude(_ channel: BoardFile.Channel) -> Double {
    channel.ratedVoltage / channel.overdriveVoltage
  }
}

/// A PWM H-bridge per channel, the host shaping the drive: an ERM channel gets the level as
/// signed PWM (its sign the direction, reverse drive brakes); an LRA channel is driven open
/// loop by a sine carrier the board synthesizes by PWM at each frame's frequency (the channel's
/// f0, or its `frequencyControlHz` range), level × sin φ with the phase rule of
/// docs/protocol.md §6.5, so the host's brakes land in anti-phase. Boards/uno-hbridge.json.
public enum PWMHBridgeDriver: DriverFamily {
  public static let name = "pwm-hbridge"
  public static let summary = "PWM H-bridges driving ERMs (signed PWM) and LRAs (synthesized sine carrier), host-shaped"
  public static let shaping = DriveShaping.host
  public static func problems(_ file: BoardFile) -> [BoardFileError.Problem] {
    file.levels.signed ? [] : [.init("levels.signed", "an H-bridge brakes with reverse drive (anti-phase for an LRA): signed levels")]
  }
  public static func ratedAmplitude(_ channel: BoardFile.Channel) -> Double {
    channel.ratedVoltage / channel.overdriveVoltage
  }
}
