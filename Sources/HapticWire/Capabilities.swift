/// What a board reports about itself in answer to `identify` (docs/protocol.md §6.3).
public struct BoardCapabilities: Sendable, Hashable {
  /// Optional features, as bits.
  public struct Features: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The board (or its driver chip) brakes actively.
    public static let braking = Features(rawValue: 1 << 0)
    /// The board (or its driver chip) overdrives at onsets.
    public static let overdrive = Features(rawValue: 1 << 1)
    /// Segments carry a drive frequency.
    public static let frequencyControl = Features(rawValue: 1 << 2)
    /// `calibrate` is supported.
    public static let calibration = Features(rawValue: 1 << 3)
    /// `play ROM effect` is supported.
    public static let romEffects = Features(rawValue: 1 << 4)
    /// Levels are signed: negative levels reverse-drive (brake).
    public static let signedLevels = Features(rawValue: 1 << 5)
    /// The board keeps a serial for life and answers `identity request` (protocol v1.1).
    public static let identity = Features(rawValue: 1 << 6)
  }

  /// Calibration state of a channel.
  public enum Calibration: UInt8, Sendable, Hashable {
    case notApplicable = 0, uncalibrated = 1, calibrated = 2, failed = 3
  }

  /// The actuator on a channel.
  public enum ActuatorKind: UInt8, Sendable, Hashable {
    /// No actuator is connected (haptics are not supported on this channel).
    case none = 0
    case lra = 1
    case erm = 2
  }

  /// One actuator channel.
  public struct Channel: Sendable, Hashable {
    /// The actuator kind.
    public var kind: ActuatorKind
    /// Resonant (LRA) or nominal (ERM) frequency in Hz.
    public var resonantFrequency: Double
    /// Quality factor, if known.
    public var qualityFactor: Double?
    /// The drive-frequency range in whole Hz, or `nil` without frequency control.
    public var frequencyRange: ClosedRange<Int>?
    /// Bits of amplitude resolution (sign bit included when levels are signed).
    public var amplitudeBits: Int
    /// Calibration state.
    public var calibration: Calibration

    /// Creates a channel description.
    public init(
      kind: ActuatorKind, resonantFrequency: Double, qualityFactor: Double?,
      frequencyRange: ClosedRange<Int>?, amplitudeBits: Int, calibration: Calibration
    ) {
      self.kind = kind
      self.resonantFrequency = resonantFrequency
      self.qualityFactor = qualityFactor
      self.frequencyRange = frequencyRange
      self.amplitudeBits = amplitudeBits
      self.calibration = calibration
    }
  }

  /// The protocol major version the board speaks.
  public var protocolVersion: UInt8
  /// Firmware name.
  public var firmwareName: String
  /// Firmware version, e.g. "1.0.3".
  public var firmwareVersion: String
  /// Board id (matches a board file, e.g. `uno-drv2605l`).
  public var boardID: String
  /// Boot counter (increments on every reset).
  public var bootCount: UInt16
  /// Board clock frequency in Hz (board times are in these ticks).
  public var clockFrequency: UInt32
  /// Frame period in microseconds.
  public var framePeriodMicroseconds: UInt16
  /// Segment queue depth per channel.
  public var queueDepth: UInt16
  /// Watchdog timeout in milliseconds (drive stops after this much silence).
  public var watchdogMilliseconds: UInt16
  /// Optional features.
  public var features: Features
  /// The channels.
  public var channels: [Channel]

  /// Creates a capabilities value.
  public init(
    protocolVersion: UInt8 = WireFrame.protocolVersion, firmwareName: String, firmwareVersion: String,
    boardID: String, bootCount: UInt16, clockFrequency: UInt32, framePeriodMicroseconds: UInt16,
    queueDepth: UInt16, watchdogMilliseconds: UInt16, features: Features, channels: [Channel]
  ) {
    self.protocolVersion = protocolVersion
    self.firmwareName = firmwareName
    self.firmwareVersion = firmwareVersion
    self.boardID = boardID
    self.bootCount = bootCount
    self.clockFrequency = clockFrequency
    self.framePeriodMicroseconds = framePeriodMicroseconds
    self.queueDepth = queueDepth
    self.watchdogMilliseconds = watchdogMilliseconds
    self.features = features
    self.channels = channels
  }
}

extension BoardCapabilities {
  func encode(into out: inout WireWriter) {
    out.u8(protocolVersion)
    out.string(firmwareName)
    out.string(firmwareVersion)
    out.string(boardID)
    out.u16(bootCount)
    out.u32(clockFrequency)
    out.u16(framePeriodMicroseconds)
    out.u16(queueDepth)
    out.u16(watchdogMilliseconds)
    out.u16(features.rawValue)
    out.u8(UInt8(clamping: channels.count))
    for channel in channels.prefix(255) {
      out.u8(channel.kind.rawValue)
      out.u16(UInt16(clamping: Int((channel.resonantFrequency * 10).rounded())))
      out.u16(UInt16(clamping: Int(((channel.qualityFactor ?? 0) * 100).rounded())))
      out.u16(UInt16(clamping: channel.frequencyRange?.lowerBound ?? 0))
      out.u16(UInt16(clamping: channel.frequencyRange?.upperBound ?? 0))
      out.u8(UInt8(clamping: channel.amplitudeBits))
      out.u8(channel.calibration.rawValue)
    }
  }

  static func decode(from reader: inout WireReader) throws(WireError) -> BoardCapabilities {
    let version = try reader.u8()
    let name = try reader.string()
    let firmwareVersion = try reader.string()
    let board = try reader.string()
    let boot = try reader.u16()
    let clock = try reader.u32()
    let period = try reader.u16()
    let depth = try reader.u16()
    let watchdog = try reader.u16()
    let features = Features(rawValue: try reader.u16())
    let count = Int(try reader.u8())
    var channels: [Channel] = []
    for _ in 0..<count {
      guard let kind = ActuatorKind(rawValue: try reader.u8()) else {
        throw WireError(.badPayload, "unknown actuator kind")
      }
      let f0 = Double(try reader.u16()) / 10
      let q = try reader.u16()
      let low = Int(try reader.u16())
      let high = Int(try reader.u16())
      let bits = Int(try reader.u8())
      guard let calibration = Calibration(rawValue: try reader.u8()) else {
        throw WireError(.badPayload, "unknown calibration state")
      }
      guard low <= high else { throw WireError(.badPayload, "frequency range \(low)…\(high) is reversed") }
      channels.append(Channel(
        kind: kind, resonantFrequency: f0, qualityFactor: q == 0 ? nil : Double(q) / 100,
        frequencyRange: high == 0 ? nil : low...high, amplitudeBits: bits, calibration: calibration))
    }
    return BoardCapabilities(
      protocolVersion: version, firmwareName: name, firmwareVersion: firmwareVersion, boardID: board,
      bootCount: boot, clockFrequency: clock, framePeriodMicroseconds: period, queueDepth: depth,
      watchdogMilliseconds: watchdog, features: features, channels: channels)
  }
}
