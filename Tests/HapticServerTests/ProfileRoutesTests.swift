import Foundation
@testable import HapticServer
import HapticRenderer
import HapticSimulator
import Hummingbird
import HummingbirdTesting
import Testing

/// Board profiles and response maps (issue 29's compare view): `GET /v1/server`,
/// `GET /v1/profiles`, `POST /v1/profiles/{id}/render`, `GET /v1/profiles|boards/{id}/response`.
@Suite("Board server: profiles and response maps")
struct ProfileRoutesTests {
  @Test("GET /v1/profiles lists the board types with their channels; GET /v1/server says what the server offers")
  func profiles() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let answer = try await PlayerAPITests.send(client, .get, "/v1/profiles")
      let profiles = try #require(answer.json["profiles"] as? [[String: Any]], "\(answer.json)")
      #expect(profiles.map { $0["id"] as? String } == BoardProfile.builtIn.map(\.id))
      let hbridge = try #require(profiles.first { $0["id"] as? String == "uno-hbridge" })
      let channels = try #require(hbridge["channels"] as? [[String: Any]])
      #expect(channels.map { $0["kind"] as? String } == ["ERM", "LRA"], "\(channels)")
      #expect(channels[0]["band_hz"] == nil && (channels[1]["band_hz"] as? [Int])?.count == 2, "an ERM has no band, the LRA one")
      let offer = try await PlayerAPITests.send(client, .get, "/v1/server").json
      #expect(offer["library"] as? Bool == false && offer["studio"] as? Bool == false && offer["profiles"] as? Int == 4, "\(offer)")
    }
  }

  @Test("render on a profile: what the served board of that profile renders; both channels of uno-hbridge; unknown ids refused")
  func render() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let onBoard = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/render", StudioTests.document).json
      let onProfile = try await PlayerAPITests.send(client, .post, "/v1/profiles/sim-lra/render", StudioTests.document).json
      func channels(_ json: [String: Any]) -> [[String: Any]] { (json["render"] as? [String: Any])?["channels"] as? [[String: Any]] ?? [] }
      let boardG = try #require(channels(onBoard).first?["g"] as? [Double])
      #expect(channels(onProfile).first?["g"] as? [Double] == boardG, "a profile renders as the board of that profile")
      let hbridge = channels(try await PlayerAPITests.send(client, .post, "/v1/profiles/uno-hbridge/render", StudioTests.document).json)
      #expect(hbridge.map { $0["kind"] as? String } == ["ERM", "LRA"])
      // The held vibration (0.3 … 0.5 s) is felt on both channels: the pattern plays on all.
      for channel in hbridge {
        let g = try #require(channel["g"] as? [Double])
        #expect(g[350..<480].allSatisfy { $0 >= ResponseAnalyzer.detectionThreshold }, "channel \(channel["channel"] ?? "?")")
      }
      let missing = try await PlayerAPITests.send(client, .post, "/v1/profiles/nope/render", StudioTests.document)
      let error = missing.json["error"] as? [String: Any]
      #expect(missing.status == .notFound && error?["field"] as? String == "nope", "\(missing.json)")
      #expect((error?["message"] as? String)?.contains("known: sim-lra, sim-erm, uno-drv2605l, uno-hbridge") == true)
      let noBoard = try await PlayerAPITests.send(client, .get, "/v1/boards/uno-hbridge/response")
      #expect(noBoard.status == .notFound, "uno-hbridge is a profile here, not a served board")
    }
  }

  @Test("response: the simulator's characterization of the profile, per channel and sharpness; the served board's own")
  func response() async throws {
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    let measured = try BoardCharacterization(configuration: .init(profile: .unoHBridge)).measure()
    try await app.test(.router) { client in
      let answer = try await PlayerAPITests.send(client, .get, "/v1/profiles/uno-hbridge/response")
      let response = try #require(answer.json["response"] as? [String: Any], "\(answer.status) \(answer.json)")
      let threshold = try #require(response["threshold_g"] as? Double)
      let channels = try #require(response["channels"] as? [[String: Any]])
      #expect(channels.count == 2 && response["board"] as? String == "uno-hbridge")
      #expect(channels[0]["sharpness_band_hz"] == nil, "the ERM has no frequency control")
      #expect(channels[1]["sharpness_band_hz"] as? [Int] == measured[1].sharpnessBand.map { [$0.lowerBound, $0.upperBound] })
      for (channel, map) in zip(channels, measured) {
        let sweeps = try #require(channel["sweeps"] as? [[String: Any]])
        #expect(sweeps.map { $0["sharpness"] as? Double } == [0, 0.25, 0.5, 0.75, 1])
        for (sweep, expected) in zip(sweeps, map.sweeps) {
          let intensity = try #require(sweep["intensity"] as? [Double]), steady = try #require(sweep["steady_g"] as? [Double])
          #expect(intensity.count == 20 && steady.count == 20)
          #expect(zip(steady, expected.points).allSatisfy { abs($0 - $1.steady) <= 5e-6 }, "steady levels as characterize measures them")
          #expect(sweep["distinguishable_steps"] as? Int == expected.distinguishableSteps)
          // The lowest felt intensity is where the level first reaches the threshold.
          let lowest = try #require(sweep["lowest_felt_intensity"] as? Double)
          let index = try #require(intensity.firstIndex { abs($0 - lowest) < 1e-9 })
          #expect(steady[index] >= threshold && steady[..<index].allSatisfy { $0 < threshold })
        }
        let transients = try #require(channel["transients"] as? [[String: Any]])
        #expect(transients.count == 3 && transients.allSatisfy { ($0["peak_g"] as? Double ?? 0) > threshold })
      }
      let board = try await PlayerAPITests.send(client, .get, "/v1/boards/sim-lra/response").json
      let own = try #require(board["response"] as? [String: Any], "\(board)")
      #expect(own["board"] as? String == "sim-lra" && (own["channels"] as? [Any])?.count == 1)
      let missing = try await PlayerAPITests.send(client, .get, "/v1/profiles/nope/response")
      #expect(missing.status == .notFound)
    }
  }
}
