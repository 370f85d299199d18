/// Board → host status and telemetry (docs/protocol.md §6.8).
public struct BoardStatus: Sendable, Hashable {
  /// Watchdog state.
  public enum Watchdog: UInt8, Sendable, Hashable {
    /// No drive queued; nothing to guard.
    case idle = 0
    /// Drive is active and the host is being heard.
    case armed = 1
    /// The host went silent and the board stopped all drive.
    case fired = 2
  }

  /// Fault bits.
  public struct Faults: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let overTemperature = Faults(rawValue: 1 << 0)
    public static let overCurrent = Faults(rawValue: 1 << 1)
    public static let driverNotResponding = Faults(rawValue: 1 << 2)
    public static let noActuator = Faults(rawValue: 1 << 3)
  }

  /// Per-channel telemetry.
  public struct Channel: Sendable, Hashable {
    /// Segments waiting in the queue.
    public var queueFill: UInt16
    /// Times the queue ran dry while driving.
    public var underruns: UInt16
    /// Segments that arrived after their start time.
    public var lateSegments: UInt16
    /// The drive level now.
    public var level: Int16

    /// Creates channel telemetry.
    public init(queueFill: UInt16, underruns: UInt16, lateSegments: UInt16, level: Int16) {
      self.queueFill = queueFill
      self.underruns = underruns
      self.lateSegments = lateSegments
      self.level = level
    }
  }

  /// Board time (low 32 bits of the tick counter) when the status was taken.
  public var boardTime: UInt32
  /// Watchdog state.
  public var watchdog: Watchdog
  /// Faults.
  public var faults: Faults
  /// Frames received with a bad CRC or encoding since boot.
  public var badFrames: UInt16
  /// The channels.
  public var channels: [Channel]

  /// Creates a status.
  public init(boardTime: UInt32, watchdog: Watchdog, faults: Faults, badFrames: UInt16, channels: [Channel]) {
    self.boardTime = boardTime
    self.watchdog = watchdog
    self.faults = faults
    self.badFrames = badFrames
    self.channels = channels
  }

  func encode(into out: inout WireWriter) {
    out.u32(boardTime)
    out.u8(watchdog.rawValue)
    out.u8(faults.rawValue)
    out.u16(badFrames)
    out.u8(UInt8(clamping: channels.count))
    for channel in channels.prefix(255) {
      out.u16(channel.queueFill)
      out.u16(channel.underruns)
      out.u16(channel.lateSegments)
      out.i16(channel.level)
    }
  }

  static func decode(from reader: inout WireReader) throws(WireError) -> BoardStatus {
    let time = try reader.u32()
    guard let watchdog = Watchdog(rawValue: try reader.u8()) else {
      throw WireError(.badPayload, "unknown watchdog state")
    }
    let faults = Faults(rawValue: try reader.u8())
    let bad = try reader.u16()
    let count = Int(try reader.u8())
    var channels: [Channel] = []
    for _ in 0..<count {
      channels.append(Channel(
        queueFill: try reader.u16(), underruns: try reader.u16(), lateSegments: try reader.u16(),
        level: try reader.i16()))
    }
    return BoardStatus(boardTime: time, watchdog: watchdog, faults: faults, badFrames: bad, channels: channels)
  }
}

extension BoardStatus {
  /// Underruns over every channel.
  public var totalUnderruns: Int { channels.reduce(0) { $0 + Int($1.underruns) } }
  /// Late batches over every channel.
  public var totalLateSegments: Int { channels.reduce(0) { $0 + Int($1.lateSegments) } }
}
