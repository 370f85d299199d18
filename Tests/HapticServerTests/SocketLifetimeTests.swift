import Foundation
import HapticLocks
@testable import HapticServer
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import Testing

/// A WebSocket that closed leaves nothing of its request behind: hummingbird-websocket 2.8.1
/// keeps each upgraded request's context in a cycle (the handler reference holds a copy of the
/// context that holds it), about 2.5 kB a connection for good, which ``ServerContext`` breaks.
@Suite("Board server: closed WebSockets hold nothing")
struct SocketLifetimeTests {
  @Test("20 sockets that said hello and closed leave no request context alive")
  func closedSocketsFreeTheirContexts() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let router = BoardServer.router(hub: hub)
    let app = Application(
      router: router, server: BoardServer.server(for: router), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let port = try #require(client.port)
      let opened = Locked(0)
      for _ in 0..<20 {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/v1/ws", logger: Logger(label: "test")) { inbound, _, _ in
          var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
          if case .text(let text)? = try await messages.next(), text.contains(#""type":"hello""#) {
            opened.withLock { $0 += 1 }
          }
        }
      }
      #expect(opened.withLock { $0 } == 20, "every socket got its hello")
      // The server notices the closes within a few milliseconds; its contexts go with them.
      var live = ServerContext.live(port: port)
      for _ in 0..<100 where live > 0 {
        try await Task.sleep(for: .milliseconds(20))
        live = ServerContext.live(port: port)
      }
      #expect(live == 0, "request contexts still alive after every socket closed: \(live)")
    }
  }
}
