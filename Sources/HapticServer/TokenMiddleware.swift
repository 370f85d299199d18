public import Hummingbird

/// Requires `Authorization: Bearer TOKEN` on every request, or the query parameter
/// `access_token=TOKEN` (RFC 6750 §2.3: a browser cannot set headers on a WebSocket); a server
/// listening beyond loopback must be started with a token (issue 28).
public struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The token every request must carry.
  public let token: String

  /// First path components whose requests need no token (the studio's static page).
  public let open: Set<String>

  /// Middleware requiring `token`, except under the paths `open` names (`["studio"]`: `/studio`
  /// and everything under it).
  public init(token: String, open: Set<String> = []) {
    self.token = token
    self.open = open
  }

  public func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let first = request.uri.path.split(separator: "/").first, open.contains(String(first)) {
      return try await next(request, context)
    }
    let query = request.uri.queryParameters.first { $0.key == "access_token" }.map { String($0.value) }
    guard request.headers[.authorization] == "Bearer \(token)" || query == token else {
      throw ServerError(
        .unauthorized, field: "Authorization",
        request.headers[.authorization] == nil && query == nil
          ? "this server needs a token: send Authorization: Bearer TOKEN (or ?access_token=TOKEN)" : "wrong token")
    }
    return try await next(request, context)
  }
}
