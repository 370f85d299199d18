public import Hummingbird

/// Why the board server refused or failed a request: a code a client can act on, the field or
/// entry at fault and a message; sent as `{"error": {"code", "field", "message"}}` with its
/// HTTP status.
///
/// Codable as the error object itself (`{"code", "field", "message"}`): the HTTP body, the
/// WebSocket's `error` messages and the client's reading of both are this one type.
public struct ServerError: Error, Sendable, CustomStringConvertible, HTTPResponseError, Codable {
  /// What went wrong.
  public enum Code: String, Sendable, Codable, CaseIterable {
    /// The request is malformed or names something invalid (400).
    case badRequest = "bad_request"
    /// A token is required and the request's is missing or wrong (401).
    case unauthorized
    /// The file named is outside the server's library (403).
    case forbidden
    /// No such board, player or file (404).
    case notFound = "not_found"
    /// The upload is larger than the server takes (413).
    case tooLarge = "too_large"
    /// The server keeps as many players as it takes, none of them done (429).
    case tooMany = "too_many"
    /// The board failed the request (502).
    case boardFailed = "board_failed"
    /// A client could not reach the server, or could not read its answer (never sent by a
    /// server; 503 where a status is needed).
    case unreachable
  }

  /// The code.
  public var code: Code
  /// The field or entry at fault (a JSON path, a board id), if any.
  public var field: String?
  /// What was wrong, for a person.
  public var message: String

  /// An error with `code`, about `field`.
  public init(_ code: Code, field: String? = nil, _ message: String) {
    self.code = code
    self.field = field
    self.message = message
  }

  public var description: String { field.map { "\($0): \(message)" } ?? message }

  /// The HTTP status of the code.
  public var status: HTTPResponse.Status {
    switch code {
    case .badRequest: .badRequest
    case .unauthorized: .unauthorized
    case .forbidden: .forbidden
    case .notFound: .notFound
    case .tooLarge: .contentTooLarge
    case .tooMany: .tooManyRequests
    case .boardFailed: .badGateway
    case .unreachable: .serviceUnavailable
    }
  }

  private enum CodingKeys: String, CodingKey { case code, field, message }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    try BoardServer.json(["error": self], status: status)
  }
}
