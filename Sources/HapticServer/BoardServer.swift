import Foundation
import HapticAHAP
import HapticClip
import HapticCore
public import Hummingbird

/// The board server's HTTP API over a ``BoardHub`` (issue 28; docs/api.yaml is to follow).
///
/// - `GET /v1/boards`: `{"boards": [{"id", "name", "source", "channels"}]}`.
/// - `POST /v1/boards/{id}/play[?format=ahap|haptic]`: the body is an AHAP or `.haptic`
///   document (by `format`, else by content), read with the CLI's rules; it plays on the board
///   now. `201 {"player": n}`; a document with errors is `400` naming the first one's JSON path,
///   line and column.
public enum BoardServer {
  /// The largest pattern document taken, bytes.
  public static let maxUpload = 4 << 20

  /// The API's router over `hub`; with `token`, every request must carry it.
  public static func router(hub: BoardHub, token: String? = nil) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    if let token { router.add(middleware: TokenMiddleware(token: token)) }
    router.get("v1/boards") { _, _ -> Response in
      try json(["boards": hub.boards])
    }
    router.post("v1/boards/:id/play") { request, context -> Response in
      let id = try context.parameters.require("id")
      // An unknown board is 404 whatever the body.
      guard hub.boards.contains(where: { $0.id == id }) else { throw BoardHub.unknown(id, among: hub.boards) }
      let format = try request.uri.queryParameters.get("format").map { name -> PatternFormat in
        guard let format = PatternFormat(rawValue: String(name)) else {
          throw ServerError(.badRequest, field: "format", "format must be ahap or haptic, not \(name)")
        }
        return format
      }
      let body: ByteBuffer
      do {
        body = try await request.body.collect(upTo: maxUpload)
      } catch {
        throw ServerError(.tooLarge, field: "body", "the document is larger than \(maxUpload) bytes")
      }
      let pattern = try read(Array(buffer: body), format: format)
      let player = try hub.play(pattern, on: id)
      return try json(["player": player], status: .created)
    }
    return router
  }

  /// `bytes` as a pattern, in `format` or the one its content shows.
  static func read(_ bytes: [UInt8], format: PatternFormat?) throws(ServerError) -> HapticPattern {
    do {
      return try PatternFileReader(format: format).read(bytes, file: "body").pattern
    } catch {
      let first = error.errors.first
      throw ServerError(.badRequest, field: first?.path, first.map { "\($0)" } ?? "\(error)")
    }
  }

  static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
  }
}
