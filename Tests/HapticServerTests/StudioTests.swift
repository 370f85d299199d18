import Foundation
@testable import HapticServer
import Hummingbird
import HummingbirdTesting
import Testing

/// The studio's server side (issue 29): `POST /v1/boards/{id}/render` and the page's files.
@Suite("Board server: the studio")
struct StudioTests {
  /// A transient at 0.1 s and a held vibration from 0.3 to 0.5 s whose intensity (1.5) the
  /// reader clamps with a warning, then an intensity curve.
  static let document = #"""
    {"Pattern":[
    {"Event":{"Time":0.1,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.9},{"ParameterID":"HapticSharpness","ParameterValue":0.4}]}},
    {"Event":{"Time":0.3,"EventType":"HapticContinuous","EventDuration":0.2,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1.5}]}},
    {"ParameterCurve":{"ParameterID":"HapticIntensityControl","Time":0.3,"ParameterCurveControlPoints":[{"Time":0,"ParameterValue":1},{"Time":0.2,"ParameterValue":0.5}]}}
    ]}
    """#

  @Test("render: the events, curves and warnings as given; the drive and the felt acceleration where the events are")
  func render() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let answer = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/render", Self.document)
      let view = try #require(answer.json["render"] as? [String: Any], "\(answer.status) \(answer.json)")
      #expect(view["board"] as? String == "sim-lra" && view["source"] as? String == "body" && view["format"] as? String == "ahap")
      let events = try #require(view["events"] as? [[String: Any]])
      #expect(events.map { $0["type"] as? String } == ["transient", "continuous"])
      #expect(events.map { $0["time"] as? Double } == [0.1, 0.3])
      #expect(events[0]["intensity"] as? Double == 0.9 && events[1]["intensity"] as? Double == 1)
      let envelope = try #require(events[1]["envelope"] as? [[Double]])
      #expect(envelope.first?[0] == 0.3 && envelope.map { $0[1] }.max() == 1, "\(envelope)")
      let curves = try #require(view["curves"] as? [[String: Any]])
      #expect(curves.count == 1 && curves[0]["parameter"] as? String == "intensity" && curves[0]["kind"] as? String == "curve")
      #expect(curves[0]["points"] as? [[Double]] == [[0.3, 1], [0.5, 0.5]])
      let warnings = try #require(view["warnings"] as? [[String: Any]])
      #expect(warnings.count == 1 && warnings[0]["time"] as? Double == 0.3, "\(warnings)")
      #expect((warnings.first?["message"] as? String)?.contains("warning: Pattern[1]") == true)

      // What the board does: nothing before the tap, felt within 20 ms of it; felt during the
      // held vibration; at rest again by the end of the arrays.
      let threshold = try #require(view["threshold_g"] as? Double)
      let channel = try #require((view["channels"] as? [[String: Any]])?.first)
      let (level, hz, g) = try (
        #require(channel["level"] as? [Double]), #require(channel["hz"] as? [Double]), #require(channel["g"] as? [Double])
      )
      #expect(channel["rate"] as? Double == 1000 && level.count == g.count && hz.count == g.count && g.count >= 500)
      #expect(level[..<100].allSatisfy { $0 == 0 } && g[..<100].allSatisfy { $0 == 0 })
      #expect(g[100..<120].contains { $0 >= threshold }, "the tap is not felt: \(g[100..<120])")
      #expect(g[320..<480].allSatisfy { $0 >= threshold }, "the held vibration is not felt throughout")
      #expect(hz[300..<480].allSatisfy { $0 > 0 }, "the held drive names no frequency")
      #expect(g.last ?? 1 < threshold)
    }
  }

  @Test("render: a library file by name; bad requests refused naming the field")
  func refusals() async throws {
    let (library, root) = try LibraryTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub, library: try PatternLibrary(folder: library.path)))
    try await app.test(.router) { client in
      let file = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/render?file=taps/tap.ahap")
      let view = file.json["render"] as? [String: Any]
      #expect(view?["source"] as? String == "taps/tap.ahap" && (view?["events"] as? [Any])?.count == 1, "\(file.json)")
      let long = #"{"Pattern":[{"Event":{"Time":901,"EventType":"HapticTransient"}}]}"#
      let refused: [(String, String, HTTPResponse.Status, String)] = [
        ("/v1/boards/sim-lra/render?file=taps/tap.ahap", BoardServerTests.tap, .badRequest, "body"),
        ("/v1/boards/sim-lra/render?file=taps/tap.ahap&format=ahap", "", .badRequest, "format"),
        ("/v1/boards/sim-lra/render?file=../secret.ahap", "", .forbidden, "file"),
        ("/v1/boards/sim-lra/render?file=none.ahap", "", .notFound, "file"),
        ("/v1/boards/sim-lra/render?file=broken.ahap", "", .badRequest, "Pattern[0].Event.Time"),
        ("/v1/boards/sim-lra/render?speed=2", BoardServerTests.tap, .badRequest, "speed"),
        ("/v1/boards/sim-lra/render", "", .badRequest, "body"),
        ("/v1/boards/sim-lra/render", long, .badRequest, "body"),
        ("/v1/boards/sim-erm/render", BoardServerTests.tap, .notFound, "board"),
      ]
      for (uri, body, status, field) in refused {
        let answer = try await PlayerAPITests.send(client, .post, uri, body)
        let error = answer.json["error"] as? [String: Any]
        #expect(answer.status == status && error?["field"] as? String == field, "\(uri): \(answer.status) \(answer.json)")
      }
    }
  }

  @Test("The page's files are served under /studio (no token needed), nothing else; a plain server has none")
  func page() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let studio = try StudioPage()
    let app = Application(router: BoardServer.router(hub: hub, token: "t0ken", studio: studio))
    try await app.test(.router) { client in
      for (uri, type) in [
        ("/studio", "text/html"), ("/studio/", "text/html"), ("/studio/main.js", "text/javascript"), ("/studio/lanes.js", "text/javascript"),
        ("/studio/studio.css", "text/css"),
      ] {
        try await client.execute(uri: uri, method: .get) { response in
          #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix(type) == true, "\(uri): \(response.status)")
          #expect(response.body.readableBytes > 100, "\(uri) is empty")
        }
      }
      for uri in ["/studio/none.js", "/studio/..%2FPackage.swift", "/studio/../Package.swift"] {
        try await client.execute(uri: uri, method: .get) { response in #expect(response.status == .notFound, "\(uri)") }
      }
      // The API still needs the token.
      try await client.execute(uri: "/v1/boards", method: .get) { response in #expect(response.status == .unauthorized) }
    }
    let plain = Application(router: BoardServer.router(hub: hub))
    try await plain.test(.router) { client in
      try await client.execute(uri: "/studio/", method: .get) { response in #expect(response.status == .notFound) }
    }
  }

  @Test("A studio folder without the page is refused by name")
  func missingPage() {
    #expect(throws: ServerError.self) { try StudioPage(folder: "/nonexistent/studio") }
  }
}

extension StudioTests {
  @Test("render: the answer is JSON with sorted keys; the lanes' numbers read back as written")
  func laneNumbers() async throws {
    let values = [0, 1, -1, 0.5, -0.0625, 0.1234, 170, 2.0001, -0.0001, 1234.5678, 0.26]
    let document = Self.document
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      // The whole answer is JSON that JSONSerialization reads, keys sorted.
      try await client.execute(uri: "/v1/boards/sim-lra/render", method: .post, body: ByteBuffer(string: document)) { response in
        let text = String(buffer: response.body)
        let keys = ["\"board\"", "\"channels\"", "\"curves\"", "\"duration\"", "\"events\"", "\"format\"", "\"frame_period\"", "\"source\"", "\"threshold_g\"", "\"warnings\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "keys out of order")
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
      }
    }
    var bytes: [UInt8] = []
    PatternView.write(values, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "[0,1,-1,0.5,-0.0625,0.1234,170,2.0001,-0.0001,1234.5678,0.26]")
    let read = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [Double])
    #expect(read == values)
  }
}
