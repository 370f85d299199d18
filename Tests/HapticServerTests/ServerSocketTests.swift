import Foundation
import HapticEngineSimulator
import HapticLocks
import HapticSimulator
import HapticServer
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOWebSocket
import Testing

/// The WebSocket `/v1/ws` over a real TCP connection to a real-time simulated board: hello,
/// the 200 Hz stream, players owned by the socket (stopped when it closes), live parameters,
/// refusals.
@Suite("Board server: the WebSocket")
struct ServerSocketTests {
  /// Messages a client received, in order.
  final class Inbox: Sendable {
    let texts = Locked<[String]>([])
    func add(_ text: String) { texts.withLock { $0.append(text) } }
    var messages: [[String: Any]] {
      texts.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
    func of(_ type: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == type } }
  }

  /// Runs a server on a free port and one client that sends `requests` (each after its delay),
  /// reads for `seconds` and closes; returns what it received and the board's link.
  static func session(
    _ requests: [(delay: Double, text: String)], seconds: Double, after: (@Sendable (BoardHub, SimulatorBoardLink) async throws -> Void)? = nil
  ) async throws -> (Inbox, SimulatorBoardLink, BoardHub) {
    let (hub, link) = try BoardServerTests.hub()
    let router = BoardServer.router(hub: hub)
    let app = Application(
      router: router, server: BoardServer.server(for: router), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    let inbox = Inbox()
    try await app.test(.live) { client in
      let port = try #require(client.port)
      try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/v1/ws", logger: Logger(label: "test")) { inbound, outbound, _ in
        let reader = Task {
          for try await message in inbound.messages(maxSize: 1 << 20) {
            if case .text(let text) = message { inbox.add(text) }
          }
        }
        for (delay, text) in requests {
          try await Task.sleep(for: .seconds(delay))
          try await outbound.write(.text(text))
        }
        try await Task.sleep(for: .seconds(seconds))
        // Close, and let the reader end with the close handshake. Cancelling the reader instead
        // ends the connection's one inbound iterator under the handler's own close handshake, and
        // connect then throws CancellationError now and then (CI, stop 44).
        try await outbound.close(.normalClosure, reason: nil)
        _ = try? await reader.value
      }
      // The server notices the close.
      try await Task.sleep(for: .milliseconds(200))
      try await after?(hub, link)
    }
    return (inbox, link, hub)
  }

  static let held = PlayerAPITests.held.replacingOccurrences(of: "\"EventDuration\":3", with: "\"EventDuration\":5")

  @Test("hello, a subscribed board streams at 200 Hz with the felt level and the playhead; a play replies with its player")
  func stream() async throws {
    let (inbox, _, hub) = try await Self.session(
      [
        (0, #"{"op": "subscribe", "board": "sim-lra", "id": "s"}"#),
        (0, #"{"op": "play", "board": "sim-lra", "document": \#(Self.held), "id": 7}"#),
      ], seconds: 1.0)
    hub.close()
    let hello = try #require(inbox.messages.first)
    #expect(hello["type"] as? String == "hello" && hello["client"] as? Int == 1, "\(hello)")
    let replies = inbox.of("reply")
    #expect(replies.contains { $0["id"] as? String == "s" && $0["board"] as? String == "sim-lra" }, "\(replies)")
    let play = try #require(replies.first { $0["id"] as? Int == 7 })
    #expect((play["player"] as? [String: Any])?["owner"] as? Int == 1)
    let streams = inbox.of("stream")
    // 1 s at 200 Hz: a slow machine may lose a few to scheduling, never most.
    #expect(streams.count >= 150 && streams.count <= 210, "\(streams.count) stream messages in 1 s")
    let felt = streams.compactMap { ($0["channels"] as? [[String: Any]])?.first?["g"] as? Double }
    #expect((felt.max() ?? 0) > 1.0, "full drive at f0 is felt (1.48 G): \(felt.max() ?? 0)")
    let heads = streams.compactMap { ($0["players"] as? [[String: Any]])?.first?["offset"] as? Double }
    #expect(heads.count > 100 && zip(heads, heads.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "the playhead moves on")
    #expect((heads.last ?? 0) > 0.6 && (heads.last ?? 0) < 1.2, "about 1 s in: \(heads.last ?? 0)")
  }

  @Test("Closing the socket stops its players: the board is not left driving, and they are forgotten")
  func closeStops() async throws {
    let (_, link, hub) = try await Self.session(
      [(0, #"{"op": "play", "board": "sim-lra", "document": \#(Self.held)}"#)], seconds: 0.3
    ) { hub, link in
      #expect(hub.players.isEmpty, "the socket's players are forgotten")
      #expect(link.snapshot.driveLog.last.map { abs($0.level) } == 0, "the drive stopped")
    }
    hub.close()
    #expect(link.snapshot.driveLog.contains { abs($0.level) > 60 }, "it did drive")
  }

  @Test("Live intensity over the socket lowers the drive; refusals come back as errors naming the field")
  func liveAndRefusals() async throws {
    let (inbox, link, hub) = try await Self.session(
      [
        (0, #"{"op": "play", "board": "sim-lra", "document": \#(Self.held), "id": 1}"#),
        (0.3, #"{"op": "parameters", "player": 1, "intensity": 0.1}"#),
        (0, #"{"op": "parameters", "player": 1, "intensity": 2, "id": 2}"#),
        (0, #"{"op": "fly", "id": 3}"#),
        (0, #"{"op": "seek", "player": 99, "offset": 1, "id": 4}"#),
        (0, "not json"),
        (0, #"{"op": "play", "board": "sim-lra", "id": 5}"#),
      ], seconds: 0.3)
    hub.close()
    let errors = inbox.of("error")
    func field(_ id: Int) -> String? {
      (errors.first { $0["id"] as? Int == id }?["error"] as? [String: Any])?["field"] as? String
    }
    #expect(field(2) == "intensity" && field(3) == "op" && field(4) == "player" && field(5) == "document", "\(errors)")
    let badJSON = errors.first { ($0["error"] as? [String: Any])?["field"] as? String == "message" }
    #expect(
      (badJSON?["error"] as? [String: Any])?["message"] as? String
        == "the message is not JSON (line 1, column 1: expected 'null')",
      "bad JSON is refused too, saying where: \(errors)")
    #expect(!inbox.of("reply").contains { $0["op"] as? String == "parameters" }, "live parameters without an id get no reply")
    // The board's drive: full before the change, about a third of it after (intensity 0.1).
    let log = link.snapshot.driveLog
    let full = log.map { abs($0.level) }.max() ?? 0
    let start = try #require(log.first { $0.level != 0 }?.time)
    func level(at t: Double) -> Int { abs(log.last { $0.time <= start + t }?.level ?? 0) }
    let late = max(level(at: 0.5), level(at: 0.52), level(at: 0.54))
    #expect(full > 60 && late > 0 && late < full / 3, "full \(full), after intensity 0.1: \(late)")
  }
}
