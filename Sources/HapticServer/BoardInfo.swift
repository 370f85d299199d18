import HapticEngine
import HapticRenderer
import HapticWire

/// What a client sees of a board: what it is, what it can do and how its link is doing
/// (`GET /v1/boards`, docs/api.yaml `Board`).
public struct BoardInfo: Sendable, Codable, Equatable {
  /// One channel's actuator.
  public struct Channel: Sendable, Codable, Equatable {
    /// `LRA` or `ERM`.
    public var kind: String
    /// Its resonance (LRA) or rated vibration frequency (ERM), Hz.
    public var resonantHz: Double
    /// The drive frequencies the renderer uses, Hz (nil: no frequency control).
    public var bandHz: [Int]?
    /// Bits of drive amplitude.
    public var amplitudeBits: Int

    enum CodingKeys: String, CodingKey {
      case kind
      case resonantHz = "resonant_hz"
      case bandHz = "band_hz"
      case amplitudeBits = "amplitude_bits"
    }

    /// `channel`'s drive frequencies as `band_hz` gives them: [low, high] in whole Hz, nil
    /// without frequency control (shared with `GET /v1/profiles`).
    static func bandHz(of channel: ActuatorModel) -> [Int]? {
      channel.frequencyControl.map { [Int($0.lowerBound.rounded()), Int($0.upperBound.rounded())] }
    }
  }

  /// The link's health since the engine started.
  public struct Health: Sendable, Codable, Equatable {
    /// The last measured round trip, milliseconds (nil before one).
    public var roundTripMs: Double?
    /// How fast the board's clock runs against the host's, parts per million (positive: the
    /// board's is fast; nil until clock sync has estimated it).
    public var driftPPM: Double?
    /// The largest lookahead used, milliseconds.
    public var lookaheadMs: Double
    /// Passes that found the host behind the board, and the board's own underruns.
    public var underruns: Int
    /// Batches the board received after their start (from its last status).
    public var lateSegments: Int
    /// Frames sent again, and losses recovered from.
    public var retransmits: Int
    public var recoveries: Int
    /// Bytes written to the board.
    public var wireBytes: Int

    enum CodingKeys: String, CodingKey {
      case roundTripMs = "round_trip_ms"
      case driftPPM = "drift_ppm"
      case lookaheadMs = "lookahead_ms"
      case underruns
      case lateSegments = "late_segments"
      case retransmits, recoveries
      case wireBytes = "wire_bytes"
    }
  }

  /// The id clients name it by (`sim-lra`, numbered when taken: `sim-lra-2`).
  public var id: String
  /// The board type's name.
  public var name: String
  /// Where it is: `sim` or the serial port's path.
  public var source: String
  /// `running`, `stopped` (the engine stopped: a reset it could not recover from), or `gone`.
  public var state: String
  /// Its channels.
  public var channels: [Channel]
  /// The firmware's name and version, and the protocol version it speaks.
  public var firmware: String
  public var protocolVersion: Int
  /// Milliseconds per drive frame, and segments a channel's queue holds.
  public var framePeriodMs: Double
  public var queueDepth: Int
  /// The link's health.
  public var health: Health

  enum CodingKeys: String, CodingKey {
    case id, name, source, state, channels, firmware
    case protocolVersion = "protocol_version"
    case framePeriodMs = "frame_period_ms"
    case queueDepth = "queue_depth"
    case health
  }

  /// The info of a board whose engine reports `report` over a link with `statistics`.
  init(
    id: String, name: String, source: String, state: String, profile: BoardProfile, capabilities: BoardCapabilities,
    report: HapticEngine.Report, statistics: BoardLinkStatistics
  ) {
    self.id = id
    self.name = name
    self.source = source
    self.state = state
    // The profile's channels: the numbers players name (the renderer's, with the board's f0
    // and drive band as its board file and calibration say).
    let reported = capabilities.channels.filter { $0.kind != .none }
    channels = profile.channels.enumerated().map { index, channel in
      Channel(
        kind: channel.kind.rawValue, resonantHz: channel.resonantFrequency, bandHz: Channel.bandHz(of: channel),
        amplitudeBits: index < reported.count ? reported[index].amplitudeBits : 8)
    }
    firmware = "\(capabilities.firmwareName) \(capabilities.firmwareVersion)"
    protocolVersion = Int(capabilities.protocolVersion)
    framePeriodMs = Double(capabilities.framePeriodMicroseconds) / 1000
    queueDepth = Int(capabilities.queueDepth)
    health = Health(
      roundTripMs: statistics.roundTrip.map { ($0 * 1e5).rounded() / 100 },
      driftPPM: statistics.driftPPM.map { ($0 * 10).rounded() / 10 }, lookaheadMs: (report.lookahead * 1e5).rounded() / 100,
      underruns: report.underruns + report.boardUnderruns, lateSegments: report.lateSegments,
      retransmits: report.retransmissions, recoveries: report.recoveries, wireBytes: report.wireBytes)
  }
}
