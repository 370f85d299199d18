import Foundation
import HapticClip
import HapticRenderer
import Testing

@testable import HapticSimulator

/// One channel of a built-in board: the perceptual targets hold per actuator.
struct BoardChannel: Sendable, CustomTestStringConvertible {
  let profile: BoardProfile
  let channel: Int

  /// Every channel of every built-in board.
  static let all = BoardProfile.builtIn.flatMap { profile in
    profile.channels.indices.map { BoardChannel(profile: profile, channel: $0) }
  }

  /// The board's id, with the channel on boards of several.
  var key: String { profile.channels.count > 1 ? "\(profile.id)#\(channel)" : profile.id }
  var testDescription: String { key }
}

/// Issue 12's perceptual targets, measured on every channel of every built-in board's simulated
/// actuators by ``BoardCharacterization`` (what `hapticctl characterize` prints): any regression
/// fails here.
@Suite("Perceptual fidelity (simulated acceleration)")
struct FidelityTests {
  /// Each board's maps, measured once (a board's channels are measured together).
  static let maps: [String: Result<[ChannelResponseMap], any Error>] = Dictionary(
    uniqueKeysWithValues: BoardProfile.builtIn.map { profile in
      (profile.id, Result { try BoardCharacterization(configuration: SimulatorConfiguration(profile: profile)).measure() })
    })

  static func map(_ board: BoardChannel) throws -> ChannelResponseMap {
    let maps = try #require(Self.maps[board.profile.id]).get()
    #expect(maps.count == board.profile.channels.count)
    return try #require(maps.indices.contains(board.channel) ? maps[board.channel] : nil)
  }

  static func map(_ profile: BoardProfile) throws -> ChannelResponseMap {
    try map(BoardChannel(profile: profile, channel: 0))
  }

  @Test("Every intensity step is felt, every +0.1 by ≥ 1.5 dB, and intensity ≥ 0.1 is above threshold", arguments: BoardChannel.all)
  func intensitySteps(_ board: BoardChannel) throws {
    let map = try Self.map(board)
    #expect(map.sweeps.map(\.sharpness) == BoardCharacterization.sharpnessValues)
    for sweep in map.sweeps {
      let label = "\(board.key) sharpness \(sweep.sharpness)"
      #expect(sweep.points.count == 20, "\(label)")
      #expect(sweep.smallestStepDecibels >= 0.3, "\(label): a +0.05 step adds only \(sweep.smallestStepDecibels) dB")
      #expect(sweep.lastTenthDecibels >= 1, "\(label): 0.9 → 1.0 adds only \(sweep.lastTenthDecibels) dB")
      #expect(sweep.smallestTenthStepDecibels >= 1.5, "\(label): a +0.1 step adds only \(sweep.smallestTenthStepDecibels) dB")
      for point in sweep.points where point.intensity >= 0.1 - 1e-9 {
        #expect(point.steady >= ChannelResponseMap.detectionThreshold, "\(label) intensity \(point.intensity): \(point.steady) G")
      }
    }
  }

  @Test("Onsets do not overshoot: peak / steady ≤ 1.25 at intensity 0.5 and 1", arguments: BoardChannel.all)
  func overshoot(_ board: BoardChannel) throws {
    for sweep in try Self.map(board).sweeps {
      for intensity in [0.5, 1.0] {
        let point = try #require(sweep.point(at: intensity))
        #expect(point.overshoot <= 1.25, "\(board.key) sharpness \(sweep.sharpness) intensity \(intensity): \(point.overshoot)")
      }
    }
  }

  /// A continuous event stops within 13 ms on a host-shaped LRA (it glides to f0 and brakes
  /// there, docs/semantics.md §15.3); the other channels as before the perceptual model, or as
  /// measured when they were added (uno-hbridge's ERM, issue 16: docs/semantics.md §15.6).
  @Test("Continuous events stop promptly", arguments: BoardChannel.all)
  func continuousStops(_ board: BoardChannel) throws {
    let before: [String: [(full: Double, half: Double)]] = [
      "sim-erm": [(135.9, 66.1), (49.2, 19.2), (31.9, 9.1), (24.1, 9.7), (18.2, 7.6)],
      "uno-drv2605l": Array(repeating: (12.1, 3.3), count: 5),
      "uno-hbridge#0": [(135.9, 71.0), (43.0, 17.4), (28.6, 8.5), (20.2, 3.7), (18.1, 2.7)],
    ]
    for (index, sweep) in try Self.map(board).sweeps.enumerated() {
      let full = try #require(sweep.points.last).stopMilliseconds
      let half = try #require(sweep.point(at: 0.5)).stopMilliseconds
      let limit: (full: Double, half: Double) = before[board.key]?[index] ?? (13, 13)
      #expect(full <= limit.full + 0.2, "\(board.key) sharpness \(sweep.sharpness): \(full) ms at intensity 1")
      #expect(half <= limit.half + 0.2, "\(board.key) sharpness \(sweep.sharpness): \(half) ms at intensity 0.5")
    }
  }

  /// The channels with a sharpness band: `sim-lra` and `uno-hbridge`'s LRA.
  static let banded = BoardChannel.all.filter { $0.profile.channels[$0.channel].frequencyControl != nil }

  /// Issue 34: the middle of the sharpness range near resonance (docs/semantics.md §15.2).
  @Test("Sharpness map: 0.5 ≥ 0.9 × the strongest, 0.25 and 0.75 ≥ 0.6 ×, a clip's 0.5 ≥ 0.9 ×; tilt ≤ 12 dB; steps", arguments: banded)
  func sharpnessMap(_ board: BoardChannel) throws {
    let map = try Self.map(board)
    #expect(map.fullIntensity.map(\.sharpness) == BoardCharacterization.fineSharpnessValues)
    let middle = try #require(map.fractionOfStrongest(at: 0.5))
    #expect(middle >= 0.9, "\(board.key) sharpness 0.5: \(middle) × the strongest")
    for sharpness in [0.25, 0.75] {
      let fraction = try #require(map.fractionOfStrongest(at: sharpness))
      #expect(fraction >= 0.6, "\(board.key) sharpness \(sharpness): \(fraction) × the strongest")
    }
    let clip = map.clipMiddle.steady / map.strongest
    #expect(clip >= 0.9, "\(board.key) .haptic frequency 0.5: \(clip) × the strongest")
    #expect(map.tiltDecibels <= 12, "\(board.key): tilt \(map.tiltDecibels) dB")
    // Sharpness still means frequency: it rises with sharpness, across the whole band.
    let frequencies = map.fullIntensity.map(\.frequency)
    #expect(frequencies == frequencies.sorted() && Set(frequencies).count == frequencies.count, "\(frequencies)")
    let band = try #require(map.sharpnessBand)
    #expect(band.upperBound - band.lowerBound >= 40)
    #expect(frequencies.first == Double(band.lowerBound) && frequencies.last == Double(band.upperBound))
    let steps = Dictionary(uniqueKeysWithValues: map.sweeps.map { ($0.sharpness, $0.distinguishableSteps) })
    for sharpness in [0.25, 0.5, 0.75] {
      #expect(try #require(steps[sharpness]) >= 10, "\(board.key) sharpness \(sharpness)")
    }
    #expect(try #require(steps[0]) >= 7 && steps[1] ?? 0 >= 7, "\(board.key): \(steps)")
  }

  @Test("A clip's middle frequency, as characterize measures it, is what HapticClip plays")
  func clipMiddleIsTheClip() throws {
    let clip = HapticClip(
      amplitude: [.init(time: 0, amplitude: 1), .init(time: BoardCharacterization.eventDuration, amplitude: 1)],
      frequency: [.init(time: 0, frequency: 0.5)])
    let played = Array(try FrameRenderer(pattern: clip.pattern(), profile: .simLRA))
    let measured = Array(try FrameRenderer(pattern: BoardCharacterization.clipMiddle(), profile: .simLRA))
    #expect(played == measured && played.count > 400)
  }

  @Test("A transient over a continuous event keeps ≥ 90 % of its peak", arguments: BoardChannel.all)
  func transientPriority(_ board: BoardChannel) throws {
    let map = try Self.map(board)
    #expect(map.transientOverContinuous.count == 3)
    for mix in map.transientOverContinuous {
      #expect(mix.ratio >= 0.9, "\(board.key) over sharpness \(mix.continuousSharpness): \(mix.ratio)")
    }
  }

  /// Lone transients (intensity 1, sharpness 0 / 0.5 / 1): a host-shaped LRA's crispness
  /// targets, and the other channels no worse than before the perceptual model
  /// (docs/semantics.md §11.5) or than when they were added (uno-hbridge's ERM, §15.6).
  @Test("Lone transients keep their crispness", arguments: BoardChannel.all)
  func loneTransients(_ board: BoardChannel) throws {
    // ERMs: every click stops within 15 ms (issue 34); round clicks are capped for it
    // (docs/semantics.md §15.7: `uno-hbridge` 0.943 / 0.856 G rang 18.5 / 20.2 ms before).
    let before: [String: [(peak: Double, rise: Double, stop: Double)]] = [
      "uno-drv2605l": [(0.763, 7.2, 9.1), (0.770, 7.2, 9.1), (0.715, 6.6, 8.9)],
      "sim-erm": [(0.408, 30.4, 13.2), (0.401, 30.0, 13.2), (0.248, 21.9, 9.6)],
      "uno-hbridge#0": [(0.556, 27.7, 12.6), (0.547, 27.4, 14.8), (0.425, 23.2, 11.9)],
    ]
    let transients = try Self.map(board).transients
    #expect(transients.map(\.sharpness) == [0, 0.5, 1])
    for (index, figures) in transients.enumerated() {
      let label = "\(board.key) sharpness \(figures.sharpness)"
      let rise = try #require(figures.riseMilliseconds, "\(label)")
      let stop = try #require(figures.stopMilliseconds, "\(label)")
      if let reference = before[board.key]?[index] {
        #expect(figures.peak >= reference.peak * 0.995, "\(label): peak \(figures.peak) G")
        #expect(rise <= reference.rise + 0.1, "\(label): rise \(rise) ms")
        #expect(stop <= reference.stop + 0.1, "\(label): stop \(stop) ms")
        if board.profile.channels[board.channel].kind == .erm { #expect(stop <= 15, "\(label): stop \(stop) ms") }
      } else {
        #expect(figures.peak >= 0.75, "\(label): peak \(figures.peak) G")
        #expect(rise <= 9, "\(label): rise \(rise) ms")
        #expect(stop <= 12, "\(label): stop \(stop) ms")
      }
    }
  }

  /// Issue 34: on an LRA with a sharpness band a round click (0) and a sharp one (1) feel
  /// different — time above 10 % of the peak ≥ 1.5 ×, or ≥ 2.5 dB apart in two of the first five
  /// 5 ms windows of the felt envelope (docs/semantics.md §15.7).
  @Test("Sharpness is felt in a click", arguments: banded)
  func clickSharpness(_ board: BoardChannel) throws {
    let transients = try Self.map(board).transients
    let (round, sharp) = (try #require(transients.first), try #require(transients.last))
    #expect(round.sharpness == 0 && sharp.sharpness == 1)
    let longer = try #require(round.aboveTenthMilliseconds) / (try #require(sharp.aboveTenthMilliseconds))
    let apart = zip(round.windows, sharp.windows).filter { abs(20 * log10($0 / $1)) >= 2.5 }.count
    #expect(round.windows.count == 5 && sharp.windows.count == 5)
    #expect(longer >= 1.5 || apart >= 2, "\(board.key): \(longer) × as long, \(apart) windows apart: \(round.windows) vs \(sharp.windows)")
  }

  @Test("An amplitude-only board has no band and no tilt; sharpness sets crispness only")
  func amplitudeOnly() throws {
    let map = try Self.map(.unoDRV2605L)
    #expect(map.sharpnessBand == nil)
    #expect(map.tiltDecibels < 0.1)
    #expect(Set(map.sweeps.map(\.frequency)) == [175])
  }
}
