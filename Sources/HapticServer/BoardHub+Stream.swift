import HapticEngine
import HapticLocks
import HapticRenderer
/// What a display of a board draws, sampled at 200 Hz (the WebSocket's `stream` messages).
public struct StreamSample: Sendable, Encodable, Equatable {
  /// One channel now.
  public struct Channel: Sendable, Encodable, Equatable {
    /// The vibration's amplitude, G: the in-process simulator's, or for a serial board the
    /// server's picture of it (what it sent, through the actuator's physics); nil for a link
    /// the server cannot picture.
    public var g: Double?
    /// The drive: level as a fraction of full scale, and frequency in Hz.
    public var level: Double?
    public var hz: Double?
  }

  /// A player's playhead.
  public struct Playhead: Sendable, Encodable, Equatable {
    public var player: Int
    public var state: String
    public var offset: Double
  }

  public var type = "stream"
  /// The board.
  public var board: String
  /// Engine time (board seconds) of the sample.
  public var time: Double
  public var channels: [Channel]
  /// The board's players that are playing or paused.
  public var players: [Playhead]
}

extension BoardHub {
  /// Board `id` now, or nil when it is not served.
  public func sample(_ id: String) -> StreamSample? {
    guard let board = try? served(id) else { return nil }
    let channels =
      board.sample?().map { channel in
        StreamSample.Channel(
          g: Self.rounded(channel.envelope, 1e4), level: Self.rounded(channel.level, 1e4), hz: channel.frequency)
      } ?? board.profile.channels.map { _ in StreamSample.Channel() }
    let kept = state.withLock { state in state.players.values.filter { $0.board == id } }
    let playheads = kept.sorted { $0.id < $1.id }.compactMap { served -> StreamSample.Playhead? in
      guard served.failure == nil, let position = served.player.position,
        position.state == .playing || position.state == .paused
      else { return nil }
      return StreamSample.Playhead(player: served.id, state: position.state.rawValue, offset: Self.rounded(position.offset, 1e4))
    }
    return StreamSample(
      board: id, time: Self.rounded(board.engine.currentTime, 1e4), channels: channels, players: playheads)
  }

  /// `value` to 1/`scale`.
  static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}
