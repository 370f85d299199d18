import HapticCore
import HapticEngine

/// What a client sees of a player: where it plays, what, and where it is now.
public struct PlayerInfo: Sendable, Codable, Equatable {
  /// The player's number on this server.
  public var id: Int
  /// The board it plays on.
  public var board: String
  /// The board channels it plays on.
  public var channels: [Int]
  /// What it plays: `document`, `file NAME` or `preset NAME`.
  public var source: String
  /// The pattern's duration, seconds.
  public var duration: Double
  /// `idle`, `playing`, `paused`, `finished` or `failed`.
  public var state: String
  /// Pattern seconds now.
  public var offset: Double
  /// Pattern seconds per second.
  public var rate: Double
  /// Whether it loops.
  public var loop: Bool
  /// Where a loop wraps, pattern seconds (0: the pattern's end).
  public var loopEnd: Double
  /// The WebSocket client whose players stop when it leaves (nil: kept until deleted).
  public var owner: Int?
  /// Why it failed (the board reset or went away, or refused the drive).
  public var error: String?

  enum CodingKeys: String, CodingKey {
    case id, board, channels, source, duration, state, offset, rate, loop
    case loopEnd = "loop_end"
    case owner, error
  }
}

/// How a new player is set up (query fields of `POST /v1/boards/{id}/players`, or the fields
/// of a WebSocket `play`).
public struct PlayerOptions: Sendable {
  /// The fields these options are read from.
  static let fields: Set<String> = ["channels", "loop", "loop_end", "rate", "start", "delay", "offset"]

  public var channels: [Int]?
  /// Loop, wrapping at `loopEnd` (0: the pattern's end), at `rate`.
  public var loop = false
  public var loopEnd = 0.0
  public var rate = 1.0
  /// Start at once (after `delay`); else it waits for a start.
  public var start = true
  /// Seconds from now.
  public var delay = 0.0
  /// Where in the pattern to start, seconds.
  public var offset = 0.0

  /// The options in `fields` for a board of `channelCount` channels.
  init(_ fields: RequestFields, channelCount: Int) throws(ServerError) {
    channels = try fields.channels("channels", count: channelCount)
    loop = try fields.bool("loop") ?? false
    loopEnd = try fields.number("loop_end", in: 0...86_400, meaning: "seconds from 0 to 86400") ?? 0
    rate = try fields.number("rate", in: 1.0 / 64...64, meaning: "a rate from 1/64 to 64") ?? 1
    start = try fields.bool("start") ?? true
    delay = try fields.number("delay", in: 0...60, meaning: "seconds from 0 to 60") ?? 0
    offset = try fields.number("offset", in: 0...86_400, meaning: "seconds from 0 to 86400") ?? 0
  }

  /// The defaults: all channels, once, at rate 1, now.
  public init() {}
}

/// One player the server keeps: the engine's player and what clients see of it. The player is
/// released (and the engine forgets it once its drive is done) when this goes.
struct ServedPlayer: Sendable {
  let id: Int
  let board: String
  let channels: [Int]
  let source: String
  let player: HapticAdvancedPatternPlayer
  /// The WebSocket client that owns it, if any.
  var owner: Int?
  /// Why it ended with an error, once it has.
  var failure: String?
  /// It played to its end (or was stopped) since it last started: a board that goes away later
  /// does not fail it.
  var ended = false

  /// The player as clients see it now.
  var info: PlayerInfo {
    let position = player.position
    let state = failure != nil ? "failed" : position?.state.rawValue ?? (ended ? "finished" : "idle")
    return PlayerInfo(
      id: id, board: board, channels: channels, source: source, duration: player.pattern.duration, state: state,
      offset: ((position?.offset ?? 0) * 1e4).rounded() / 1e4, rate: player.playbackRate, loop: player.loopEnabled, loopEnd: player.loopEnd,
      owner: owner, error: failure)
  }

  /// Whether it has nothing more to play (finished, failed, or idle and never to start).
  var isDone: Bool {
    failure != nil || ended || player.position.map { $0.state == .finished } ?? true
  }
}
