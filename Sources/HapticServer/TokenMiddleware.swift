public import Hummingbird

/// Requires `Authorization: Bearer TOKEN` on every request (a server listening beyond loopback
/// must be started with a token: issue 28).
public struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The token every request must carry.
  public let token: String

  /// Middleware requiring `token`.
  public init(token: String) {
    self.token = token
  }

  public func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.headers[.authorization] == "Bearer \(token)" else {
      throw ServerError(
        .unauthorized, field: "Authorization",
        request.headers[.authorization] == nil ? "this server needs a token: send Authorization: Bearer TOKEN" : "wrong token")
    }
    return try await next(request, context)
  }
}
