import Foundation
import HapticAHAP
import HapticClip
import HapticCore
import HapticEngine
public import HapticRenderer
public import Hummingbird
public import HummingbirdCore
import HummingbirdWebSocket

/// The board server's API over a ``BoardHub`` (issue 28; normative: docs/api.yaml).
///
/// Boards: `GET /v1/boards`, `GET /v1/boards/{id}`, `POST /v1/boards/{id}/probe` (fresh board
/// counters), `POST /v1/boards/{id}/play` (a document, played once and forgotten),
/// `POST /v1/boards/{id}/rom` (a driver ROM effect). Players: `POST /v1/boards/{id}/players`,
/// `GET /v1/players[/{n}]`,
/// `POST /v1/players/{n}/start|stop|pause|resume|seek|parameters`, `PATCH` and `DELETE
/// /v1/players/{n}` (``BoardServer`` `+Players`). Patterns: `POST /v1/patterns/validate`,
/// `GET /v1/library`, `GET /v1/presets`; `POST /v1/boards/{id}/render` (`PatternView`: what
/// the studio draws). Profiles and response maps: `GET /v1/server`, `GET /v1/profiles`,
/// `POST /v1/profiles/{id}/render`, `GET /v1/profiles|boards/{id}/response` (`+Profiles`). Events, live parameters and the 200 Hz stream: the
/// WebSocket `GET /v1/ws` (``ServerSocket``). Errors: `{"error": {"code", "field", "message"}}`.
public enum BoardServer {
  /// The largest pattern document or request body taken, bytes.
  public static let maxUpload = 4 << 20

  /// The request context: HTTP, and the WebSocket upgrade of `/v1/ws`.
  public typealias Context = ServerContext

  /// The API's router over `hub`; with `token`, every request must carry it; with `library`,
  /// clients may play its files by name; with `studio`, the studio's page is served at
  /// `/studio/` (its files need no token: they carry no access to the boards); `profiles` are
  /// the board types clients may render on and compare without a board (`GET /v1/profiles`).
  public static func router(
    hub: BoardHub, token: String? = nil, library: PatternLibrary? = nil, studio: StudioPage? = nil,
    profiles: [BoardProfile] = BoardProfile.builtIn
  ) -> Router<Context> {
    let router = Router(context: Context.self)
    if let token { router.add(middleware: TokenMiddleware(token: token, open: studio == nil ? [] : ["studio"])) }
    studio?.add(to: router)
    router.get("v1/boards") { _, _ -> Response in
      try json(["boards": hub.boards])
    }
    router.get("v1/boards/:id") { _, context -> Response in
      try json(["board": try hub.board(try context.parameters.require("id"))])
    }
    router.post("v1/boards/:id/probe") { _, context -> Response in
      try json(["board": try await hub.probe(try context.parameters.require("id"))])
    }
    router.post("v1/boards/:id/play") { request, context -> Response in
      let id = try context.parameters.require("id")
      // An unknown board is 404 whatever the body.
      _ = try hub.board(id)
      let fields = try RequestFields(query: query(request), allowed: ["format"])
      let format = try PatternSource.format(try fields.string("format"))
      let pattern = try PatternSource.read(try await body(request), format: format, file: "body").pattern
      return try json(["play": try hub.play(pattern, on: id)], status: .created)
    }
    router.post("v1/boards/:id/rom") { request, context -> Response in
      let id = try context.parameters.require("id")
      _ = try hub.board(id)
      let fields = try RequestFields(query: query(request), allowed: BoardHub.romFields)
      return try json(["rom": try hub.playROMEffect(on: id, fields)], status: .created)
    }
    router.post("v1/boards/:id/render") { request, context -> Response in
      let id = try context.parameters.require("id")
      let profile = try hub.served(id).profile
      let fields = try RequestFields(query: query(request), allowed: ["format", "file"])
      let bytes = try await body(request)
      let view = try await PatternView.render(fields, body: bytes, board: id, profile: profile, library: library)
      return json(bytes: try view.answer())
    }
    router.post("v1/patterns/validate") { request, _ -> Response in
      let fields = try RequestFields(query: query(request), allowed: ["format"])
      let format = try PatternSource.format(try fields.string("format"))
      let bytes = try await body(request)
      let document = try PatternSource.read(bytes, format: format, file: "body")
      return try json(
        Validation(
          format: (format ?? PatternFormat.sniff(bytes)).rawValue, duration: document.pattern.duration,
          events: document.pattern.events.count, warnings: document.warnings.map { "\($0)" }))
    }
    router.get("v1/library") { _, _ -> Response in
      guard let library else {
        throw ServerError(.notFound, field: "library", "this server has no library (start it with --library DIR)")
      }
      return try json(["files": library.files])
    }
    router.get("v1/presets") { _, _ -> Response in
      try json(["presets": HapticPresets.all.map { Preset(name: $0.name, summary: $0.summary, takesIntensity: $0.takesIntensity) }])
    }
    addPlayerRoutes(to: router, hub: hub, library: library)
    addProfileRoutes(to: router, hub: hub, profiles: profiles, library: library, studio: studio != nil)
    ServerSocket.add(to: router, hub: hub, library: library)
    return router
  }

  /// The HTTP/1 server with the WebSocket upgrade that serves `router` (frames up to
  /// ``maxUpload``: a WebSocket `play` carries a whole document).
  public static func server(for router: Router<Context>) -> HTTPServerBuilder {
    .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: maxUpload)))
  }

  /// `POST /v1/patterns/validate`'s answer.
  struct Validation: Encodable {
    var format: String
    var duration: Double
    var events: Int
    var warnings: [String]
  }

  /// `GET /v1/presets`' entries.
  struct Preset: Encodable {
    var name: String
    var summary: String
    var takesIntensity: Bool

    enum CodingKeys: String, CodingKey {
      case name, summary
      case takesIntensity = "takes_intensity"
    }
  }

  /// A request's query as (key, value) strings.
  static func query(_ request: Request) -> [(key: String, value: String)] {
    request.uri.queryParameters.map { (String($0.key), String($0.value)) }
  }

  /// A request's body, at most ``maxUpload`` bytes.
  static func body(_ request: Request) async throws(ServerError) -> [UInt8] {
    do {
      return Array(buffer: try await request.body.collect(upTo: maxUpload))
    } catch {
      throw ServerError(.tooLarge, field: "body", "the body is larger than \(maxUpload) bytes")
    }
  }

  /// `value` as a JSON response (keys sorted).
  static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    json(bytes: try encode(value), status: status)
  }

  /// JSON text already written (keys sorted) as a response.
  static func json(bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// `value` as JSON bytes, keys sorted.
  static func encode(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
  }
}
