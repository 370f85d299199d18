import AsyncHTTPClient
import Foundation
public import HapticServer
import NIOCore
import NIOHTTP1

/// A client of a running `hapticctl serve` (docs/api.yaml): the boards over HTTP, and players
/// over the WebSocket (``ServerSession``), where they stop when the client goes.
///
/// ```swift
/// let client = try HapticServerClient(url: "http://127.0.0.1:8040")
/// let boards = try await client.boards()
/// try await client.session { session in
///   let player = try await session.play(on: boards[0].id, document: ahapBytes)
///   _ = try await session.end(of: player.id)
/// }
/// ```
public struct HapticServerClient: Sendable {
  /// The server, `http://HOST:PORT` (no trailing slash).
  public let base: String
  /// The token sent as `Authorization: Bearer TOKEN`, if any.
  public let token: String?

  /// A client of the server at `url` (`http://HOST:PORT`).
  ///
  /// - Throws: ``ServerError`` `badRequest` naming the URL when it is not `http://HOST:PORT`.
  public init(url: String, token: String? = nil) throws(ServerError) {
    var text = url
    while text.hasSuffix("/") { text.removeLast() }
    guard let parsed = URL(string: text), parsed.scheme == "http", parsed.host != nil, parsed.path.isEmpty else {
      throw ServerError(.badRequest, field: "server", "\(url): expected http://HOST:PORT, e.g. http://127.0.0.1:8040")
    }
    base = text
    self.token = token
  }

  /// The boards the server serves.
  public func boards() async throws(ServerError) -> [BoardInfo] {
    try await call("/v1/boards", as: Boards.self).boards
  }

  /// Board `id`.
  public func board(_ id: String) async throws(ServerError) -> BoardInfo {
    try await call("/v1/boards/\(Self.escaped(id))", as: OneBoard.self).board
  }

  /// Plays effect `effect` of the driver's ROM `library` on `channel` of board `id` (boards
  /// with ROM effects: the DRV2605L's), at once.
  ///
  /// - Throws: the server's refusal: a board without ROM effects, a number out of range.
  public func playROMEffect(on id: String, effect: Int, library: Int = 1, channel: Int = 0) async throws(ServerError)
    -> ROMPlay
  {
    try await call(
      "/v1/boards/\(Self.escaped(id))/rom?effect=\(effect)&library=\(library)&channel=\(channel)", as: OneROM.self,
      method: .POST
    ).rom
  }

  private struct Boards: Decodable { var boards: [BoardInfo] }
  private struct OneBoard: Decodable { var board: BoardInfo }
  private struct OneROM: Decodable { var rom: ROMPlay }

  /// `method path`, its answer (200 or 201) decoded; a refusal is the server's error.
  func call<T: Decodable>(_ path: String, as type: T.Type, method: HTTPMethod = .GET) async throws(ServerError) -> T {
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    let status: HTTPResponseStatus
    let body: ByteBuffer
    do {
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
      status = response.status
      body = try await response.body.collect(upTo: 16 << 20)
    } catch {
      throw ServerError(.unreachable, field: "server", "cannot reach \(base) (\(error))")
    }
    let bytes = Data(body.readableBytesView)
    guard status == .ok || status == .created else { throw Self.refusal(bytes, status: Int(status.code), from: base) }
    do {
      return try JSONDecoder().decode(T.self, from: bytes)
    } catch {
      throw ServerError(.unreachable, field: "server", "\(base)\(path): an answer this client does not read: \(error)")
    }
  }

  /// The server's `{"error": …}` body as an error (or the status, when it is not one).
  static func refusal(_ bytes: Data, status: Int, from base: String) -> ServerError {
    guard let body = try? JSONDecoder().decode([String: ServerError].self, from: bytes), let error = body["error"] else {
      return ServerError(.unreachable, field: "server", "\(base) answered \(status)")
    }
    return error
  }

  static func escaped(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
  }
}
