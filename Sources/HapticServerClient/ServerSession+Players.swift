import Foundation
import HTTPTypes
import HapticLocks
import NIOWebSocket
import HapticCore
public import HapticServer
import HummingbirdWSClient
import Logging

/// Players over a session, and how a client opens one.
extension ServerSession {
  /// Plays `document` (AHAP or `.haptic` JSON) on `board`, set up by `options`; the player is
  /// this session's.
  public func play(on board: String, document: [UInt8], options: PlayerOptions = PlayerOptions()) async throws(ServerError)
    -> PlayerInfo
  {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(document)), case .object = value else {
      throw ServerError(.badRequest, field: "document", "the document is not a JSON object")
    }
    return try await play(on: board, source: ["document": value], options: options)
  }

  /// Plays preset `name` at `intensity` on `board`.
  public func play(on board: String, preset name: String, intensity: Double = 1, options: PlayerOptions = PlayerOptions())
    async throws(ServerError) -> PlayerInfo
  {
    try await play(on: board, source: ["preset": .string(name), "intensity": .number(intensity)], options: options)
  }

  private func play(on board: String, source: [String: JSONValue], options: PlayerOptions) async throws(ServerError)
    -> PlayerInfo
  {
    var fields = source.merging(Self.fields(of: options)) { first, _ in first }
    fields["board"] = .string(board)
    return try Self.player(try await request("play", fields))
  }

  /// Does `action` to `player`; returns it as the server then reports it. Live parameters are
  /// posted without waiting for a reply (``post(_:_:)``) and return nil.
  @discardableResult
  public func control(_ player: Int, _ action: PlayerAction) async throws(ServerError) -> PlayerInfo? {
    var fields: [String: JSONValue] = ["player": .number(Double(player))]
    let op: String
    switch action {
    case .start(let delay, let offset):
      (op, fields["delay"], fields["offset"]) = ("start", .number(delay), .number(offset))
    case .stop(let delay): (op, fields["delay"]) = ("stop", .number(delay))
    case .pause: op = "pause"
    case .resume: op = "resume"
    case .seek(let offset): (op, fields["offset"]) = ("seek", .number(offset))
    case .set(let loop, let loopEnd, let rate):
      op = "set"
      if let loop { fields["loop"] = .bool(loop) }
      if let loopEnd { fields["loop_end"] = .number(loopEnd) }
      if let rate { fields["rate"] = .number(rate) }
    case .parameters(let parameters):
      let names: [DynamicParameterID: String] = [
        .hapticIntensityControl: "intensity", .hapticSharpnessControl: "sharpness", .hapticAttackTimeControl: "attack",
        .hapticDecayTimeControl: "decay", .hapticReleaseTimeControl: "release",
      ]
      for parameter in parameters {
        guard let name = names[parameter.id] else {
          throw ServerError(.badRequest, field: "parameters", "the server takes no \(parameter.id.rawValue)")
        }
        fields[name] = .number(parameter.value)
      }
      try await post("parameters", fields)
      return nil
    }
    return try Self.player(try await request(op, fields))
  }

  static func fields(of options: PlayerOptions) -> [String: JSONValue] {
    var fields: [String: JSONValue] = [
      "loop": .bool(options.loop), "loop_end": .number(options.loopEnd), "rate": .number(options.rate),
      "start": .bool(options.start), "delay": .number(options.delay), "offset": .number(options.offset),
    ]
    if let channels = options.channels { fields["channels"] = .array(channels.map { .number(Double($0)) }) }
    return fields
  }

  static func player(_ reply: JSONValue) throws(ServerError) -> PlayerInfo {
    guard case .object(let members) = reply, let info = decode(PlayerInfo.self, members["player"]) else {
      throw ServerError(.unreachable, field: "server", "a reply without its player")
    }
    return info
  }
}

extension HapticServerClient {
  /// Opens a WebSocket session, runs `body` with it, and closes it (the server then stops the
  /// session's players).
  ///
  /// - Throws: ``ServerError`` `unreachable` when the server cannot be reached, or what `body`
  ///   throws.
  public func session<T: Sendable>(_ body: @escaping @Sendable (ServerSession) async throws -> T) async throws -> T {
    var configuration = WebSocketClientConfiguration(maxFrameSize: BoardServer.maxUpload)
    if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
    let url = "ws" + base.dropFirst("http".count) + "/v1/ws"
    let result = ResultBox<T>()
    do {
      try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "hapticctl")) {
        inbound, outbound, _ in
        let session = ServerSession { text in try await outbound.write(.text(text)) }
        // The body runs beside the reader; when it ends it closes the socket, and the reader
        // (the connection's one inbound iterator) ends with the close handshake. A server that
        // closes first ends the reader, and the session fails what the body still waits for.
        let runner = Task {
          do {
            result.set(.success(try await body(session)))
          } catch {
            result.set(.failure(error))
          }
          try? await outbound.close(.normalClosure, reason: nil)
        }
        do {
          for try await message in inbound.messages(maxSize: BoardServer.maxUpload) {
            if case .text(let text) = message { session.receive(text) }
          }
        } catch {
          session.close()
          await runner.value
          throw error
        }
        session.close()
        await runner.value
      }
    } catch {
      // The connection's own end after the body ran does not undo what the body did.
      if result.value == nil { throw ServerError(.unreachable, field: "server", "cannot reach \(url) (\(error))") }
    }
    guard let outcome = result.value else {
      throw ServerError(.unreachable, field: "server", "\(url): the connection ended before the session ran")
    }
    return try outcome.get()
  }
}

/// The outcome of a session's body, handed out of the WebSocket handler.
final class ResultBox<T: Sendable>: Sendable {
  private let box = Locked<Result<T, any Error>?>(nil)
  func set(_ result: Result<T, any Error>) { box.withLock { $0 = result } }
  var value: Result<T, any Error>? { box.withLock { $0 } }
}
