import Foundation
public import HapticServer
import HapticLocks
import HummingbirdWSClient
import Logging

/// Something the server told a session (docs/api.yaml `x-websocket`).
public enum ServerSessionEvent: Sendable, Equatable {
  /// A player changed (`created`, `started`, …, `finished`, `failed`, `deleted`).
  case player(change: String, PlayerInfo)
  /// A board event (`connected`, `reset`, `gone`, `failed`).
  case board(id: String, event: String, message: String)
}

/// One WebSocket connection to the server: requests answered by replies, and events. The
/// players it plays are the connection's: the server stops them when it closes.
public final class ServerSession: Sendable {
  /// This client's number on the server (from its `hello`).
  public var client: Int { state.withLock { $0.client } }
  /// The events, in order (one consumer).
  public let events: AsyncStream<ServerSessionEvent>

  private struct State: Sendable {
    var client = 0
    var nextID = 1
    var replies: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    var endWaiters: [Int: [CheckedContinuation<PlayerInfo?, Never>]] = [:]
    var ended: [Int: PlayerInfo] = [:]
    var closed = false
  }

  private let state = Locked(State())
  private let post: AsyncStream<ServerSessionEvent>.Continuation
  private let write: @Sendable (String) async throws -> Void

  init(write: @escaping @Sendable (String) async throws -> Void) {
    self.write = write
    (events, post) = AsyncStream.makeStream(of: ServerSessionEvent.self, bufferingPolicy: .bufferingNewest(1024))
  }

  /// Sends request `op` with `fields` and waits for its reply.
  ///
  /// - Throws: the server's refusal (``ServerError`` with its code and field), or `unreachable`
  ///   when the connection ends first.
  public func request(_ op: String, _ fields: [String: JSONValue]) async throws(ServerError) -> JSONValue {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    var message = fields
    message["op"] = .string(op)
    message["id"] = .number(Double(id))
    let text = JSONValue.object(message).jsonText
    do {
      return try await withCheckedThrowingContinuation { continuation in
        let closed = state.withLock { state in
          if !state.closed { state.replies[id] = continuation }
          return state.closed
        }
        if closed { continuation.resume(throwing: ServerError(.unreachable, field: "server", "the connection is closed")) }
        Task {
          do { try await write(text) } catch { self.fail(id, error) }
        }
      }
    } catch let error as ServerError {
      throw error
    } catch {
      throw ServerError(.unreachable, field: "server", "\(error)")
    }
  }

  /// Sends request `op` without waiting (no `id`: the server replies only to refuse it). Live
  /// parameters go this way.
  public func post(_ op: String, _ fields: [String: JSONValue]) async throws(ServerError) {
    var message = fields
    message["op"] = .string(op)
    do {
      try await write(JSONValue.object(message).jsonText)
    } catch {
      throw ServerError(.unreachable, field: "server", "\(error)")
    }
  }

  /// Waits until player `number` has finished, failed or been deleted; returns it as it ended,
  /// or nil when the connection closed first.
  public func end(of number: Int) async -> PlayerInfo? {
    await withCheckedContinuation { continuation in
      let (ended, closed) = state.withLock { state -> (PlayerInfo?, Bool) in
        if let info = state.ended[number] { return (info, false) }
        if state.closed { return (nil, true) }
        state.endWaiters[number, default: []].append(continuation)
        return (nil, false)
      }
      if ended != nil || closed { continuation.resume(returning: ended) }
    }
  }

  private func fail(_ id: Int, _ error: any Error) {
    state.withLock { $0.replies.removeValue(forKey: id) }?.resume(
      throwing: ServerError(.unreachable, field: "server", "\(error)"))
  }

  /// Handles one message from the server.
  func receive(_ text: String) {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
      case .object(let message) = value, case .string(let type) = message["type"]
    else { return }
    switch type {
    case "hello":
      if case .number(let client) = message["client"] { state.withLock { $0.client = Int(client) } }
    case "reply", "error":
      guard case .number(let id) = message["id"],
        let continuation = state.withLock({ $0.replies.removeValue(forKey: Int(id)) })
      else { return }
      if type == "reply" {
        continuation.resume(returning: value)
      } else {
        continuation.resume(throwing: Self.error(message["error"]))
      }
    case "player":
      guard case .string(let change) = message["change"], let info = Self.decode(PlayerInfo.self, message["player"]) else {
        return
      }
      if ["finished", "failed", "deleted"].contains(change) {
        let waiters = state.withLock { state in
          state.ended[info.id] = info
          return state.endWaiters.removeValue(forKey: info.id) ?? []
        }
        for waiter in waiters { waiter.resume(returning: info) }
      } else if change == "started" {
        _ = state.withLock { $0.ended.removeValue(forKey: info.id) }
      }
      post.yield(.player(change: change, info))
    case "board":
      if case .string(let id) = message["board"], case .string(let event) = message["event"] {
        var text = ""
        if case .string(let message) = message["message"] { text = message }
        post.yield(.board(id: id, event: event, message: text))
      }
    default:
      return
    }
  }

  /// The connection ended: every waiting request fails, the events end.
  func close() {
    let (replies, waiters) = state.withLock { state in
      state.closed = true
      defer {
        state.replies.removeAll()
        state.endWaiters.removeAll()
      }
      return (Array(state.replies.values), state.endWaiters.values.flatMap { $0 })
    }
    for reply in replies { reply.resume(throwing: ServerError(.unreachable, field: "server", "the connection closed")) }
    for waiter in waiters { waiter.resume(returning: nil) }
    post.finish()
  }

  static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue?) -> T? {
    guard let value, let data = value.jsonText.data(using: .utf8) else { return nil }
    return try? JSONDecoder().decode(T.self, from: data)
  }

  static func error(_ value: JSONValue?) -> ServerError {
    decode(ServerError.self, value) ?? ServerError(.unreachable, field: "server", "an error this client does not read")
  }
}
