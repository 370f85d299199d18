import HapticRenderer
import Hummingbird

/// Board profiles (the board types the server knows, served or not), response maps, and what
/// the server offers (issue 29's compare view; docs/api.yaml): `GET /v1/server`,
/// `GET /v1/profiles`, `POST /v1/profiles/{id}/render`, `GET /v1/profiles/{id}/response` and
/// `GET /v1/boards/{id}/response` (a served board's own profile: its calibration included).
extension BoardServer {
  /// One board type of `GET /v1/profiles`.
  struct ProfileInfo: Encodable {
    struct Channel: Encodable {
      var kind: String
      var resonantHz: Double
      var bandHz: [Int]?

      enum CodingKeys: String, CodingKey {
        case kind
        case resonantHz = "resonant_hz"
        case bandHz = "band_hz"
      }
    }

    var id: String
    var name: String
    var framePeriodMs: Double
    var channels: [Channel]

    enum CodingKeys: String, CodingKey {
      case id, name, channels
      case framePeriodMs = "frame_period_ms"
    }

    init(_ profile: BoardProfile) {
      id = profile.id
      name = profile.name
      framePeriodMs = (profile.framePeriod * 1e6).rounded() / 1000
      channels = profile.channels.map { channel in
        Channel(kind: channel.kind.rawValue, resonantHz: channel.resonantFrequency, bandHz: BoardInfo.Channel.bandHz(of: channel))
      }
    }
  }

  /// `GET /v1/server`'s answer: what this server offers beyond its boards.
  struct Offer: Encodable {
    /// Whether it has a `--library` folder (`GET /v1/library` answers).
    var library: Bool
    /// Whether it serves the studio's page at `/studio/`.
    var studio: Bool
    /// How many board profiles `GET /v1/profiles` lists.
    var profiles: Int
  }

  static func addProfileRoutes(
    to router: Router<Context>, hub: BoardHub, profiles: [BoardProfile], library: PatternLibrary?, studio: Bool
  ) {
    @Sendable func profile(_ context: Context) throws -> BoardProfile {
      let id = try context.parameters.require("id")
      guard let profile = profiles.first(where: { $0.id == id }) else {
        throw ServerError(
          .notFound, field: id, "no board profile \(id) (known: \(profiles.map(\.id).joined(separator: ", ")))")
      }
      return profile
    }
    router.get("v1/server") { _, _ -> Response in
      try json(Offer(library: library != nil, studio: studio, profiles: profiles.count))
    }
    router.get("v1/profiles") { _, _ -> Response in
      try json(["profiles": profiles.map(ProfileInfo.init)])
    }
    router.post("v1/profiles/:id/render") { request, context -> Response in
      let profile = try profile(context)
      let fields = try RequestFields(query: query(request), allowed: ["format", "file"])
      let bytes = try await body(request)
      let view = try await PatternView.render(fields, body: bytes, board: profile.id, profile: profile, library: library)
      return json(bytes: try view.answer())
    }
    router.get("v1/profiles/:id/response") { _, context -> Response in
      let profile = try profile(context)
      return try json(["response": try await ResponseView.of(profile, board: profile.id)])
    }
    router.get("v1/boards/:id/response") { _, context -> Response in
      let id = try context.parameters.require("id")
      return try json(["response": try await ResponseView.of(try hub.served(id).profile, board: id)])
    }
  }
}
