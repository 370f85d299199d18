import Foundation

/// A calibration of one physical board, kept on the host (`hapticctl calibrate --write`): the
/// f0 its driver measured per channel, filed under the board's identity (its port's USB serial
/// number, else the serial the board keeps: docs/protocol.md §6.11), so it applies to that
/// board only, never to every board of its type.
public struct BoardCalibration: Sendable, Hashable, Codable {
  /// One channel's measured resonance.
  public struct Channel: Sendable, Hashable, Codable {
    /// The channel.
    public var channel: Int
    /// The resonance measured, Hz (0.1 Hz resolution).
    public var f0Hz: Double

    /// Creates a channel's calibration.
    public init(channel: Int, f0Hz: Double) {
      self.channel = channel
      self.f0Hz = (f0Hz * 10).rounded() / 10
    }

    enum CodingKeys: String, CodingKey {
      case channel
      case f0Hz = "f0_hz"
    }
  }

  /// The board's identity key (`serial-1A2B3C4D`, `usb-8573…`).
  public var identity: String
  /// The board type (board file id) it was measured on.
  public var board: String
  /// The channels measured, by channel.
  public var channels: [Channel]
  /// When it was measured (ISO 8601, UTC).
  public var calibratedAt: String

  /// Creates a calibration record.
  public init(identity: String, board: String, channels: [Channel], calibratedAt: String) {
    self.identity = identity
    self.board = board
    self.channels = channels.sorted { $0.channel < $1.channel }
    self.calibratedAt = calibratedAt
  }

  enum CodingKeys: String, CodingKey {
    case identity, board, channels
    case calibratedAt = "calibrated_at"
  }

  /// The measured f0 of `channel`, if it was calibrated.
  public func f0(channel: Int) -> Double? {
    channels.first { $0.channel == channel }?.f0Hz
  }

  /// This record with `channel` measured at `f0Hz` (replacing an earlier measurement of it).
  public func with(channel: Int, f0Hz: Double, at date: String) -> BoardCalibration {
    var list = channels.filter { $0.channel != channel }
    list.append(Channel(channel: channel, f0Hz: f0Hz))
    return BoardCalibration(identity: identity, board: board, channels: list, calibratedAt: date)
  }
}

extension BoardDefinition {
  /// This board with the channels' f0 replaced by measured ones (`[channel: f0 Hz]`), checked
  /// by the board file's own rules: the profile every renderer and engine then uses.
  ///
  /// - Throws: ``BoardFileError`` when a measured f0 does not make a valid board file (a
  ///   channel that does not exist, an f0 out of range).
  public func calibrated(_ f0: [Int: Double]) throws(BoardFileError) -> BoardDefinition {
    var file = self.file
    for (channel, hertz) in f0 {
      guard file.channels.indices.contains(channel) else {
        throw BoardFileError(file: path ?? id, problems: [.init("channels[\(channel)]", "no such channel to calibrate")])
      }
      file.channels[channel].f0Hz = (hertz * 10).rounded() / 10
    }
    let data: Data
    do {
      data = try JSONEncoder().encode(file)
    } catch {
      throw BoardFileError(file: path ?? id, problems: [.init("", "cannot encode the calibrated board: \(error)")])
    }
    return try BoardDefinition.parse(data, path: path)
  }
}
