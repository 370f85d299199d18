public import Hummingbird
public import HummingbirdWebSocket
import Synchronization
import NIOCore

/// The request context of the board server's routes: HTTP, and the WebSocket upgrade of
/// `/v1/ws` — Hummingbird's `BasicWebSocketRequestContext`, but with its handler reference
/// held where the socket's handler can let go of it, and the connection's event loop.
///
/// hummingbird-websocket 2.8.1 keeps every upgraded connection's context alive for good: the
/// router stores the handler with a copy of the context (`WebSocketHandlerReference.Value`) in
/// a box the context itself holds (`webSocket`, WebSocketRouter.swift:95), and reads it without
/// emptying it (:177) — a cycle, about 2.5 kB a connection that no close frees (heaptrack: the
/// request's logger metadata, endpoint path, handler reference and responder closures, 400 of
/// each after 400 connections came and went; the 30-minute soak grew 3.2 %). The socket's
/// handler calls ``releaseUpgrade()`` once it runs: the context then points at a fresh, empty
/// reference, and the box with its copy of the context goes when the connection ends.
public struct ServerContext: RequestContext, WebSocketRequestContext {
  /// Hummingbird's per-request storage (logger, path, parameters).
  public var coreContext: CoreRequestContextStorage
  private let upgrade: UpgradeSlot
  /// The loop that reads the request's connection (``EventLoopExecutor``).
  let eventLoop: any EventLoop

  /// Where the router leaves the WebSocket handler of an upgrade (empty once the handler let go).
  public var webSocket: WebSocketHandlerReference<Self> { upgrade.reference }

  /// A context for a request read from `source`'s channel.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    upgrade = UpgradeSlot(port: source.channel.localAddress?.port ?? 0)
    eventLoop = source.channel.eventLoop
  }

  /// Lets go of the handler reference (and the context copy in it): call from the WebSocket's
  /// handler, after the router has read it.
  func releaseUpgrade() {
    upgrade.release()
  }

  /// How many contexts of requests to the server listening on `port` are alive (a connection
  /// that closed holds none).
  static func live(port: Int) -> Int { UpgradeSlot.live.withLock { $0[port] ?? 0 } }
}

/// A request's WebSocket handler reference, replaceable (``ServerContext``).
final class UpgradeSlot: Sendable {
  /// Live slots by the listening port of their server.
  static let live = Mutex<[Int: Int]>([:])
  private let port: Int
  private let slot = Mutex(WebSocketHandlerReference<ServerContext>())

  init(port: Int) {
    self.port = port
    Self.live.withLock { $0[port, default: 0] += 1 }
  }

  deinit {
    let port = port
    Self.live.withLock { live in
      live[port, default: 0] -= 1
      if live[port] == 0 { live[port] = nil }
    }
  }

  var reference: WebSocketHandlerReference<ServerContext> { slot.withLock { $0 } }

  func release() {
    // The old reference goes after the lock is let go: its box may hold the last copy of a
    // context, whose slot is this one.
    let old = slot.withLock { slot in
      defer { slot = WebSocketHandlerReference() }
      return slot
    }
    withExtendedLifetime(old) {}
  }
}
