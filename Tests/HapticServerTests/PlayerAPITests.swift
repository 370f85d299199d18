import Foundation
import HapticEngineSimulator
import HapticServer
import HapticSimulator
import Hummingbird
import HummingbirdTesting
import Testing

/// Players over HTTP on a real-time simulated board, judged by the drive the board played (its
/// drive log): start, pause, resume, seek, rate, live parameters, delete.
@Suite("Board server: players over HTTP")
struct PlayerAPITests {
  /// 3 s of full-intensity continuous drive.
  static let held = #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":3,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#

  static func send(
    _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String = ""
  ) async throws -> (status: HTTPResponse.Status, json: [String: Any]) {
    try await client.execute(uri: uri, method: method, body: ByteBuffer(string: body)) { response in
      let bytes = Data(response.body.readableBytesView)
      let json = bytes.isEmpty ? [:] : (try JSONSerialization.jsonObject(with: bytes) as? [String: Any] ?? [:])
      return (response.status, json)
    }
  }

  /// The largest |level| the board drove in `window` seconds from now, polled as it plays.
  static func drive(_ link: SimulatorBoardLink, over window: Double) async throws -> Int {
    let start = link.snapshot.driveLog.count
    try await Task.sleep(for: .seconds(window))
    let log = link.snapshot.driveLog
    // The level in force at the start counts too (a steady drive logs no change).
    let current = log.prefix(start).last.map { abs($0.level) } ?? 0
    return max(current, log.dropFirst(start).map { abs($0.level) }.max() ?? 0)
  }

  @Test("Create without start, start, pause (the drive stops), resume, seek, rate, delete")
  func lifecycle() async throws {
    let (hub, link) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let created = try await Self.send(client, .post, "/v1/boards/sim-lra/players?start=false&loop=true", Self.held)
      #expect(created.status == .created, "\(created.json)")
      let player = try #require(created.json["player"] as? [String: Any])
      #expect(player["state"] as? String == "idle" && player["loop"] as? Bool == true && player["duration"] as? Double == 3)
      let id = try #require(player["id"] as? Int)
      #expect(try await Self.drive(link, over: 0.1) == 0, "not started: nothing drives")

      let started = try await Self.send(client, .post, "/v1/players/\(id)/start")
      #expect((started.json["player"] as? [String: Any])?["state"] as? String == "playing", "\(started.json)")
      #expect(try await Self.drive(link, over: 0.15) > 60, "started: the board drives")

      let paused = try await Self.send(client, .post, "/v1/players/\(id)/pause")
      #expect((paused.json["player"] as? [String: Any])?["state"] as? String == "paused", "\(paused.json)")
      try await Task.sleep(for: .milliseconds(100))
      #expect(link.snapshot.driveLog.last.map { abs($0.level) } == 0, "paused: the drive is at rest")
      let held = try await Self.send(client, .get, "/v1/players/\(id)")
      let offset = try #require((held.json["player"] as? [String: Any])?["offset"] as? Double)
      #expect(offset > 0.1 && offset < 1, "paused where it was: \(offset)")

      _ = try await Self.send(client, .post, "/v1/players/\(id)/resume")
      #expect(try await Self.drive(link, over: 0.15) > 60, "resumed mid-event")
      // Core Haptics' seek: an event under way at the offset does not start mid-event.
      let sought = try await Self.send(client, .post, "/v1/players/\(id)/seek", #"{"offset": 2.5}"#)
      #expect(((sought.json["player"] as? [String: Any])?["offset"] as? Double).map { abs($0 - 2.5) < 0.02 } == true, "\(sought.json)")
      let changed = try await Self.send(client, .patch, "/v1/players/\(id)", #"{"rate": 0.5, "loop_end": 2.8}"#)
      let settings = try #require(changed.json["player"] as? [String: Any])
      #expect(settings["rate"] as? Double == 0.5 && settings["loop_end"] as? Double == 2.8, "\(settings)")

      let deleted = try await Self.send(client, .delete, "/v1/players/\(id)")
      #expect(deleted.status == .noContent)
      try await Task.sleep(for: .milliseconds(100))
      #expect(link.snapshot.driveLog.last.map { abs($0.level) } == 0, "deleted: the drive stopped")
      #expect(try await Self.send(client, .get, "/v1/players/\(id)").status == .notFound)
    }
  }

  @Test("A live intensity of 0.1 lowers the drive; a preset plays; GET /v1/players lists them")
  func parametersAndPresets() async throws {
    let (hub, link) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let created = try await Self.send(client, .post, "/v1/boards/sim-lra/players", Self.held)
      let id = try #require((created.json["player"] as? [String: Any])?["id"] as? Int)
      let full = try await Self.drive(link, over: 0.2)
      let set = try await Self.send(client, .post, "/v1/players/\(id)/parameters", #"{"intensity": 0.1}"#)
      #expect(set.status == .ok, "\(set.json)")
      try await Task.sleep(for: .milliseconds(100))
      let low = try await Self.drive(link, over: 0.1)
      #expect(full > 60 && low < full / 3, "full \(full), at 0.1: \(low)")
      let preset = try await Self.send(client, .post, "/v1/boards/sim-lra/players?preset=impact-heavy&intensity=0.5")
      #expect(preset.status == .created, "\(preset.json)")
      #expect((preset.json["player"] as? [String: Any])?["source"] as? String == "preset impact-heavy")
      let list = try await Self.send(client, .get, "/v1/players")
      #expect((list.json["players"] as? [[String: Any]])?.count == 2)
    }
  }

  @Test("Refusals name the field: unknown fields, ranges, channels, unknown players, bad JSON, oversized bodies")
  func refusals() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let cases: [(HTTPRequest.Method, String, String, HTTPResponse.Status, String)] = [
        (.post, "/v1/boards/sim-lra/players?speed=2", Self.held, .badRequest, "speed"),
        (.post, "/v1/boards/sim-lra/players?rate=100", Self.held, .badRequest, "rate"),
        (.post, "/v1/boards/sim-lra/players?rate=1&rate=2", Self.held, .badRequest, "rate"),
        (.post, "/v1/boards/sim-lra/players?channels=1", Self.held, .badRequest, "channels"),
        (.post, "/v1/boards/sim-lra/players?loop=yes", Self.held, .badRequest, "loop"),
        (.post, "/v1/boards/sim-lra/players?preset=boom", "", .badRequest, "preset"),
        (.post, "/v1/boards/sim-lra/players?file=a.ahap", "", .notFound, "file"),
        (.post, "/v1/boards/nope/players", Self.held, .notFound, "board"),
        (.get, "/v1/players/7", "", .notFound, "player"),
        (.get, "/v1/players/seven", "", .badRequest, "player"),
        (.post, "/v1/players/7/seek", #"{"offset": 1}"#, .notFound, "player"),
        (.get, "/v1/library", "", .notFound, "library"),
        (.post, "/v1/boards/sim-lra/players?preset=success", Self.held, .badRequest, "body"),
        (.post, "/v1/boards/sim-lra/players?preset=success&format=ahap", "", .badRequest, "format"),
        (.post, "/v1/boards/sim-lra/players?intensity=0.5", Self.held, .badRequest, "intensity"),
        (.post, "/v1/boards/sim-lra/players", "", .badRequest, "body"),
        (.post, "/v1/boards/sim-lra/players", "[]", .badRequest, "body"),
        (.patch, "/v1/players/7", "{}", .notFound, "player"),
      ]
      for (method, uri, body, status, field) in cases {
        let answer = try await Self.send(client, method, uri, body)
        let error = answer.json["error"] as? [String: Any]
        #expect(answer.status == status && error?["field"] as? String == field, "\(uri): \(answer.status) \(answer.json)")
      }
      let created = try await Self.send(client, .post, "/v1/boards/sim-lra/players?start=false", Self.held)
      let id = try #require((created.json["player"] as? [String: Any])?["id"] as? Int)
      let bodies: [(String, String, String)] = [
        ("seek", "{}", "offset"), ("seek", #"{"offset": -1}"#, "offset"), ("seek", "[1]", "body"),
        ("start", "{not json", "body"), ("parameters", "{}", "parameters"), ("parameters", #"{"intensity": true}"#, "intensity"),
        ("stop", #"{"delay": 1, "when": 2}"#, "when"),
      ]
      let patched = try await Self.send(client, .patch, "/v1/players/\(id)", "{}")
      #expect(patched.status == .badRequest && (patched.json["error"] as? [String: Any])?["field"] as? String == "body")
      for (verb, body, field) in bodies {
        let answer = try await Self.send(client, .post, "/v1/players/\(id)/\(verb)", body)
        let error = answer.json["error"] as? [String: Any]
        #expect(answer.status == .badRequest && error?["field"] as? String == field, "\(verb) \(body): \(answer.json)")
      }
      let huge = String(repeating: " ", count: BoardServer.maxUpload + 1)
      #expect(try await Self.send(client, .post, "/v1/boards/sim-lra/players", huge).status == .contentTooLarge)
    }
  }
}
