import HapticLocks
import HapticRenderer
import HapticSimulator

/// A board's response map as the studio's compare view plots it (`GET /v1/boards/{id}/response`,
/// `GET /v1/profiles/{id}/response`, issue 29): per channel, the steady acceleration its
/// simulated actuator reaches at each intensity for each sharpness — what `hapticctl
/// characterize` measures (``BoardCharacterization``) — with the figures a designer compares
/// boards by: the steps one can tell apart, the lowest intensity felt, the loudness tilt, and
/// the lone transients' peak, rise and stop.
struct ResponseView: Encodable {
  /// One sharpness's intensity sweep.
  struct Sweep: Encodable {
    var sharpness: Double
    var frequencyHz: Double
    var intensity: [Double]
    var steadyG: [Double]
    var distinguishableSteps: Int
    var lowestFeltIntensity: Double?

    enum CodingKeys: String, CodingKey {
      case sharpness, intensity
      case frequencyHz = "frequency_hz"
      case steadyG = "steady_g"
      case distinguishableSteps = "distinguishable_steps"
      case lowestFeltIntensity = "lowest_felt_intensity"
    }
  }

  /// A lone full-intensity transient.
  struct Transient: Encodable {
    var sharpness: Double
    var peakG: Double
    var riseMs: Double?
    var stopMs: Double?

    enum CodingKeys: String, CodingKey {
      case sharpness
      case peakG = "peak_g"
      case riseMs = "rise_ms"
      case stopMs = "stop_ms"
    }
  }

  /// One channel's map.
  struct Channel: Encodable {
    var channel: Int
    var kind: String
    var resonantHz: Double
    var sharpnessBandHz: [Int]?
    var tiltDb: Double
    var sweeps: [Sweep]
    var transients: [Transient]

    enum CodingKeys: String, CodingKey {
      case channel, kind, sweeps, transients
      case resonantHz = "resonant_hz"
      case sharpnessBandHz = "sharpness_band_hz"
      case tiltDb = "tilt_db"
    }
  }

  var board: String
  var name: String
  var thresholdG: Double
  var channels: [Channel]

  enum CodingKeys: String, CodingKey {
    case board, name, channels
    case thresholdG = "threshold_g"
  }

  /// The maps measured on `profile`'s simulator, answered for `board`.
  init(board: String, profile: BoardProfile, maps: [ChannelResponseMap]) {
    self.board = board
    name = profile.name
    thresholdG = ChannelResponseMap.detectionThreshold
    channels = maps.map { map in
      Channel(
        channel: map.channel, kind: map.kind.rawValue, resonantHz: Self.round(map.resonantFrequency, 1),
        sharpnessBandHz: map.sharpnessBand.map { [$0.lowerBound, $0.upperBound] }, tiltDb: Self.round(map.tiltDecibels, 2),
        sweeps: map.sweeps.map { sweep in
          Sweep(
            sharpness: sweep.sharpness, frequencyHz: Self.round(sweep.frequency, 1),
            intensity: sweep.points.map { Self.round($0.intensity, 3) }, steadyG: sweep.points.map { Self.round($0.steady, 5) },
            distinguishableSteps: sweep.distinguishableSteps, lowestFeltIntensity: sweep.lowestFeltIntensity)
        },
        transients: map.transients.map { figures in
          Transient(
            sharpness: figures.sharpness, peakG: Self.round(figures.peak, 5),
            riseMs: figures.riseMilliseconds.map { Self.round($0, 2) }, stopMs: figures.stopMilliseconds.map { Self.round($0, 2) })
        })
    }
  }

  /// `value` to `digits` decimals (an infinite tilt, of a channel silent at some sharpness, as
  /// the largest finite value: JSON has no infinity).
  static func round(_ value: Double, _ digits: Int) -> Double {
    guard value.isFinite else { return value > 0 ? .greatestFiniteMagnitude : 0 }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (value * scale).rounded() / scale
  }
}

extension ResponseView {
  /// Maps measured so far, by profile: a profile's map never changes (the simulator is
  /// deterministic), and measuring one takes ~0.2 s of a core per channel.
  static let measured = Locked<[BoardProfile: [ChannelResponseMap]]>([:])

  /// The response map of `profile`, answered for `board`: measured on ``PatternView/renders``
  /// (one at a time, off the event loops) unless measured before.
  ///
  /// - Throws: ``ServerError`` `badRequest` when the profile cannot be simulated.
  static func of(_ profile: BoardProfile, board: String) async throws(ServerError) -> ResponseView {
    if let maps = measured.withLock({ $0[profile] }) { return ResponseView(board: board, profile: profile, maps: maps) }
    let maps = try await PatternView.onRenderQueue { () throws(ServerError) -> [ChannelResponseMap] in
      let configuration = SimulatorConfiguration(profile: profile)
      if let problem = configuration.problem {
        throw ServerError(.badRequest, field: board, "\(board) cannot be simulated: \(problem)")
      }
      do {
        return try BoardCharacterization(configuration: configuration).measure()
      } catch {
        throw ServerError(.badRequest, field: board, "\(board): \(error)")
      }
    }
    measured.withLock { $0[profile] = maps }
    return ResponseView(board: board, profile: profile, maps: maps)
  }
}
