import Foundation
import HapticLocks
import Hummingbird
import HummingbirdWebSocket

/// The WebSocket `GET /v1/ws` (docs/api.yaml, `x-websocket`): one per client.
///
/// The server sends `hello` (the client's number, the boards, the players), then every event
/// (``ServerEvent``), replies to requests, and for each board the client subscribed to a
/// `stream` message every ``streamPeriod`` (what the board feels and drives, and its players'
/// positions). The client sends requests, `{"op": …, "id": …}`: `subscribe`/`unsubscribe` a
/// board, `play` (a player owned by this client), a player action (`start`, `stop`, `pause`,
/// `resume`, `seek`, `set`, `parameters`, `delete`) or `adopt`. A request with an `id` gets a
/// `reply` with it; a refused one gets an `error` either way. When the socket closes, the
/// client's players stop and are forgotten.
enum ServerSocket {
  /// How often a subscribed board's state is streamed (200 Hz).
  static let streamPeriod: Duration = .milliseconds(5)
  /// The largest message a client may send (a `play` carries a whole document).
  static let maxMessage = BoardServer.maxUpload

  static func add(to router: Router<BoardServer.Context>, hub: BoardHub, library: PatternLibrary?) {
    router.ws("v1/ws") { inbound, outbound, context in
      // The router has read the handler: break hummingbird-websocket's cycle (ServerContext).
      context.requestContext.releaseUpgrade()
      let (client, events) = hub.events.subscribe()
      let (outbox, post) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1024))
      let session = SocketSession(client: client, hub: hub, library: library, post: post)
      defer {
        hub.events.unsubscribe(client)
        hub.removePlayers(of: client)
      }
      session.send(Hello(client: client, boards: hub.boards, players: hub.players))
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await text in outbox { try await outbound.write(.text(text)) }
        }
        group.addTask {
          for await event in events { session.send(event) }
        }
        group.addTask {
          // On a fixed grid, not a sleep after each send: 200 messages a second, not fewer.
          // Unsubscribed, it sleeps until a subscription (a 20 Hz look at 8 idle sockets woke
          // the server 160 times a second, each a timer and a pool thread).
          var changes = session.subscriptionChanges.makeAsyncIterator()
          let clock = ContinuousClock()
          var next = clock.now
          while !Task.isCancelled {
            if session.subscribed.withLock(\.isEmpty) {
              guard await changes.next() != nil else { return }
              next = clock.now
              continue
            }
            next = max(next.advanced(by: streamPeriod), clock.now.advanced(by: .milliseconds(1)))
            try await Task.sleep(until: next, clock: clock)
            session.stream()
          }
        }
        // On the connection's own loop: no thread woken per message (EventLoopExecutor).
        try await withTaskExecutorPreference(EventLoopExecutor(context.requestContext.eventLoop)) {
          for try await message in inbound.messages(maxSize: maxMessage) {
            switch message {
            case .text(let text): await session.handle(Array(text.utf8))
            case .binary(let buffer): await session.handle(Array(buffer: buffer))
            }
          }
        }
        group.cancelAll()
        post.finish()
      }
    }
  }

  /// The first message.
  struct Hello: Encodable {
    var type = "hello"
    var client: Int
    var boards: [BoardInfo]
    var players: [PlayerInfo]
  }
}

/// One WebSocket client's state: its number, the boards it streams, and where its messages go.
final class SocketSession: Sendable {
  let client: Int
  let hub: BoardHub
  let library: PatternLibrary?
  let post: AsyncStream<String>.Continuation
  /// The boards this client streams.
  let subscribed = Locked<[String]>([])
  /// A value for each change of ``subscribed`` (the stream loop waits on it while empty).
  let subscriptionChanges: AsyncStream<Void>
  private let subscriptionChanged: AsyncStream<Void>.Continuation

  init(client: Int, hub: BoardHub, library: PatternLibrary?, post: AsyncStream<String>.Continuation) {
    self.client = client
    self.hub = hub
    self.library = library
    self.post = post
    (subscriptionChanges, subscriptionChanged) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  deinit {
    subscriptionChanged.finish()
  }

  /// Adds or removes a board of ``subscribed`` and wakes the stream loop.
  func setSubscribed(_ board: String, _ on: Bool) {
    subscribed.withLock { boards in
      boards.removeAll { $0 == board }
      if on { boards.append(board) }
    }
    subscriptionChanged.yield()
  }

  /// Queues `message` for the client as JSON.
  func send(_ message: some Encodable) {
    guard let bytes = try? BoardServer.encode(message) else { return }
    post.yield(String(decoding: bytes, as: UTF8.self))
  }

  /// One `stream` message per subscribed board.
  func stream() {
    for board in subscribed.withLock({ $0 }) {
      if let sample = hub.sample(board) { send(sample) }
    }
  }
}
