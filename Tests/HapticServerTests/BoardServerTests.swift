import Foundation
import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticServer
import HapticSimulator
import Hummingbird
import HummingbirdTesting
import Testing

/// The board server's HTTP API on a simulated board, through Hummingbird's test client and over
/// a real TCP connection.
@Suite("Board server: HTTP API")
struct BoardServerTests {
  static let tap = #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#

  /// A hub with one real-time simulated `sim-lra` whose drive is logged, and that link.
  static func hub() throws -> (BoardHub, SimulatorBoardLink) {
    let link = try SimulatorBoardLink(configuration: .init(profile: .simLRA), clock: .realTime, logsDrive: true)
    let engine = try HapticEngine(link: link)
    try engine.start()
    let hub = BoardHub()
    hub.add(engine, link: link, profile: .simLRA, source: "sim")
    return (hub, link)
  }

  static func object(_ buffer: ByteBuffer) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
  }

  @Test("GET /v1/boards lists the served boards")
  func listsBoards() async throws {
    let (hub, _) = try Self.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      try await client.execute(uri: "/v1/boards", method: .get) { response in
        #expect(response.status == .ok)
        let boards = try #require(try Self.object(response.body)["boards"] as? [[String: Any]])
        #expect(boards.count == 1)
        #expect(boards[0]["id"] as? String == "sim-lra" && boards[0]["source"] as? String == "sim")
        let channels = try #require(boards[0]["channels"] as? [[String: Any]])
        #expect(channels.count == 1 && channels[0]["kind"] as? String == "LRA" && channels[0]["resonant_hz"] as? Double == 170)
        #expect(boards[0]["state"] as? String == "running" && (boards[0]["health"] as? [String: Any])?["underruns"] as? Int == 0)
      }
      // Probe again: the board answers a status request; its counters come back fresh.
      try await client.execute(uri: "/v1/boards/sim-lra/probe", method: .post) { response in
        #expect(response.status == .ok)
        let board = try #require(try Self.object(response.body)["board"] as? [String: Any])
        #expect((board["health"] as? [String: Any])?["late_segments"] as? Int == 0, "\(board)")
      }
      try await client.execute(uri: "/v1/boards/nope/probe", method: .post) { response in
        #expect(response.status == .notFound)
      }
    }
  }

  @Test("POST play: an AHAP plays on the board (full drive within 200 ms), 201 with the player")
  func playsOverTCP() async throws {
    let (hub, link) = try Self.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      let before = link.snapshot.driveLog.count
      try await client.execute(uri: "/v1/boards/sim-lra/play", method: .post, body: ByteBuffer(string: Self.tap)) { response in
        #expect(response.status == .created)
        let answer = try Self.object(response.body)
        #expect(answer["play"] as? Int == 1, "\(answer)")
      }
      // Real time: the transient reaches the board's drive (the lookahead is 30 ms).
      var waited = 0
      while !link.snapshot.driveLog.dropFirst(before).contains(where: { $0.level > 100 }) && waited < 200 {
        try await Task.sleep(for: .milliseconds(5))
        waited += 5
      }
      #expect(link.snapshot.driveLog.dropFirst(before).contains { $0.level > 100 }, "the tap drove the board")
    }
  }

  @Test("Bad requests: a broken AHAP names its entry, an unknown board and format, as JSON 4xx")
  func badRequests() async throws {
    let (hub, _) = try Self.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let broken = #"{"Pattern":[{"Event":{"Time":"soon","EventType":"HapticTransient"}}]}"#
      try await client.execute(uri: "/v1/boards/sim-lra/play", method: .post, body: ByteBuffer(string: broken)) { response in
        #expect(response.status == .badRequest)
        let error = try #require(try Self.object(response.body)["error"] as? [String: Any])
        #expect(error["code"] as? String == "bad_request")
        #expect(error["field"] as? String == "Pattern[0].Event.Time", "\(error)")
        #expect((error["message"] as? String)?.contains("soon") == true, "\(error)")
      }
      try await client.execute(uri: "/v1/boards/nope/play", method: .post, body: ByteBuffer(string: "{}")) { response in
        #expect(response.status == .notFound)
        let error = try #require(try Self.object(response.body)["error"] as? [String: Any])
        #expect(error["field"] as? String == "board" && (error["message"] as? String)?.contains("nope") == true)
      }
      try await client.execute(uri: "/v1/boards/sim-lra/play?format=wav", method: .post, body: ByteBuffer(string: Self.tap)) { response in
        #expect(response.status == .badRequest)
        let error = try #require(try Self.object(response.body)["error"] as? [String: Any])
        #expect(error["field"] as? String == "format")
      }
    }
  }
}
