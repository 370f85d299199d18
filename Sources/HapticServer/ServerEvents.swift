import Foundation
import HapticLocks

/// Something clients are told of as it happens (WebSocket messages, docs/api.yaml `Event`).
public enum ServerEvent: Sendable, Equatable, Encodable {
  /// A board event: `connected`, `reset` (it restarted: its players failed, the server started
  /// its engine again), `gone` (the link went away), `failed` (the engine could not go on).
  case board(id: String, event: String, message: String)
  /// A player changed: created, started, stopped, paused, resumed, sought, changed (loop or
  /// rate), adopted, finished, failed, deleted.
  case player(change: String, PlayerInfo)

  private enum Keys: String, CodingKey { case type, board, event, message, change, player }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    switch self {
    case .board(let id, let event, let message):
      try container.encode("board", forKey: .type)
      try container.encode(id, forKey: .board)
      try container.encode(event, forKey: .event)
      try container.encode(message, forKey: .message)
    case .player(let change, let info):
      try container.encode("player", forKey: .type)
      try container.encode(change, forKey: .change)
      try container.encode(info, forKey: .player)
    }
  }
}

/// Hands every event to every subscriber (each WebSocket client), in order, without blocking the
/// publisher: a subscriber that falls 256 events behind loses the oldest (its socket is too slow
/// to matter to anyone).
public final class ServerEvents: Sendable {
  private struct State: Sendable {
    var subscribers: [Int: AsyncStream<ServerEvent>.Continuation] = [:]
    var next = 1
  }

  private let state = Locked(State())

  /// No subscribers yet.
  public init() {}

  /// A new subscription: its number and its events.
  public func subscribe() -> (id: Int, events: AsyncStream<ServerEvent>) {
    let (stream, continuation) = AsyncStream.makeStream(of: ServerEvent.self, bufferingPolicy: .bufferingNewest(256))
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.subscribers[state.next] = continuation
      return state.next
    }
    return (id, stream)
  }

  /// Ends subscription `id`.
  public func unsubscribe(_ id: Int) {
    state.withLock { $0.subscribers.removeValue(forKey: id) }?.finish()
  }

  /// Tells every subscriber.
  public func publish(_ event: ServerEvent) {
    for continuation in state.withLock({ Array($0.subscribers.values) }) {
      continuation.yield(event)
    }
  }

  /// How many subscribe now.
  public var count: Int { state.withLock { $0.subscribers.count } }

  /// Ends every subscription (the server's shutdown).
  public func finishAll() {
    for continuation in state.withLock({ state in
      defer { state.subscribers.removeAll() }
      return Array(state.subscribers.values)
    }) {
      continuation.finish()
    }
  }
}
