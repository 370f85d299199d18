import Foundation
import HapticAHAP
import HapticClip
import HapticCore
import HapticRenderer
import HapticTestSupport
import Testing

@testable import HapticSimulator

/// AHAP → `.haptic` → AHAP on `sim-lra` (issue 17): every corpus file that converts without a
/// reported loss plays as before — what it asks of the board frame by frame, the driven
/// frames, and what is felt; files with losses report them where they occur.
@Suite("AHAP → .haptic → AHAP, played")
struct ClipRoundTripTests {
  static let files = TestCorpus.ahapFiles

  /// The clip's pattern after a trip through the `.haptic` text.
  static func roundTrip(_ pattern: HapticPattern, file: String) throws -> (ClipConversion, HapticPattern) {
    let conversion = HapticClip.converting(pattern)
    let text = HapticClipWriter().bytes(conversion.clip)
    let back = try HapticClipReader().read(text, file: file)
    #expect(back.warnings.isEmpty, "\(file): \(back.warnings)")
    #expect(HapticClipWriter().bytes(back.clip) == text, "\(file): writing is not deterministic")
    // Back in AHAP: a file cannot say that its intensities are a clip's amplitudes, so the
    // pattern plays by the perceptual law again (docs/semantics.md §17).
    var played = back.clip.pattern()
    played.intensityLaw = .perceptual
    return (conversion, played)
  }

  /// Index pairs of frames within one frame of each other (a step may land a frame apart):
  /// for each frame of `a`, whether some frame of `b` within ±1 satisfies `close`.
  static func unmatched<T>(_ a: [T], _ b: [T], silent: T, _ close: (T, T) -> Bool) -> [Int] {
    (0..<max(a.count, b.count)).filter { index in
      let mine = index < a.count ? a[index] : silent
      return !(max(0, index - 1)...(index + 1)).contains { other in close(mine, other < b.count ? b[other] : silent) }
    }
  }

  static func targets(_ pattern: HapticPattern) throws -> [FrameTarget] {
    var voices = try PatternVoices(pattern: pattern, profile: .simLRA)
    let count = Array(try FrameRenderer(pattern: pattern, profile: .simLRA)).count
    return (0..<count).map { _ in voices.next() }
  }

  /// The end of the first 100 ms of silence after `time` (an LRA's ring is under 5 % by then), or
  /// past the end of the pattern.
  static func rest(after time: Double, _ targets: [FrameTarget], period: Double) -> Double {
    let quiet = Int((0.1 / period).rounded())
    var run = 0
    for frame in max(0, Int(time / period))..<targets.count {
      run = targets[frame].power == 0 && targets[frame].transientPower == 0 ? run + 1 : 0
      if run >= quiet { return Double(frame + 1) * period }
    }
    return Double(targets.count) * period + 1
  }

  /// The pattern without its audio (audio events and controls): what a clip can carry.
  static func haptic(_ pattern: HapticPattern) -> HapticPattern {
    var haptic = HapticPattern(
      version: pattern.version, metadata: pattern.metadata, events: pattern.events.filter(\.type.isHaptic),
      parameters: pattern.parameters.filter(\.id.isHaptic), curves: pattern.curves.filter(\.id.isHaptic))
    haptic.intensityControlScope = pattern.intensityControlScope
    return haptic
  }

  @Test("Every corpus file: the same targets, driven frames within 2 levels, the same felt envelope, but where a loss was reported", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"), arguments: files)
  func playsTheSame(_ name: String) throws {
    let path = TestCorpus.ahapFolder.appendingPathComponent(name).path
    let pattern = try AHAPReader().read(contentsOf: path).pattern
    let (conversion, played) = try Self.roundTrip(pattern, file: name)
    // Losses are reported at a moment of the pattern, each for a reason the pattern has: its
    // audio (compared without it), or a stretch where continuous events overlap (left out).
    var excluded: [ClosedRange<Double>] = []
    for note in conversion.notes where note.kind == .lost {
      if note.message.contains("audio") {
        #expect(pattern.events.contains { !$0.type.isHaptic } || pattern.parameters.contains { !$0.id.isHaptic } || pattern.curves.contains { !$0.id.isHaptic }, "\(name): \(note)")
        continue
      }
      let (start, end) = (try #require(note.time, "\(name): \(note)"), try #require(note.end, "\(name): \(note)"))
      #expect(note.message.contains("overlap") && start < end && end <= pattern.duration + 2, "\(name): \(note)")
      excluded.append(start...end)
    }
    let original = Self.haptic(pattern)
    let period = BoardProfile.simLRA.framePeriod
    let asked = try Self.targets(original)
    // Left out: each stretch from the duck before it until the actuator has rested after it (the
    // host shaper's state, once different, gives other — equally good — drives until then).
    excluded = excluded.map { ($0.lowerBound - 0.03)...Self.rest(after: $0.upperBound, asked, period: period) }
    func compared(_ frame: Int, period: Double) -> Bool {
      let t = Double(frame) * period
      return !excluded.contains { $0.contains(t) }
    }
    // What the pattern asks of the board: power within 0.5 % (the trace's tolerance is 0.002 in
    // intensity), frequency within 0.5 Hz, the same transient flags.
    let asks = try Self.targets(played)
    let silent = FrameTarget.silent(hz: 0)
    let differentAsks = Self.unmatched(asks, asked, silent: silent) { a, b in
      abs(a.power - b.power) <= 0.005 * max(a.power, b.power) + 1e-9
        && (a.power == 0 || abs(a.hz - b.hz) <= 0.5) && a.transientPower == b.transientPower
        && a.transientNext == b.transientNext
    }.filter { compared($0, period: period) }
    #expect(differentAsks.isEmpty, "\(name): \(differentAsks.count) frames ask differently, first \(differentAsks.first ?? -1)")
    // The driven frames: within 2 levels, but for the host shaper's corrections, which follow
    // its model's state closely (a target differing in the sixth digit may start another,
    // equally good brake, or switch a dithered low level a frame earlier, which leaves the
    // state up to 2 % elsewhere for the corrections of the ramp that follows: Recoil's rise,
    // 6 of 404 frames): at most two frames in a hundred.
    let before = Array(try FrameRenderer(pattern: original, profile: .simLRA))
    let after = Array(try FrameRenderer(pattern: played, profile: .simLRA))
    let differentFrames = Self.unmatched(after, before, silent: Frame(index: 0, level: 0, frequency: 0)) {
      abs($0.level - $1.level) <= 2
    }.filter { compared($0, period: period) }
    #expect(differentFrames.count * 50 <= max(before.count, 100), "\(name): \(differentFrames.count) of \(before.count) frames differ by more than 2 levels: \(differentFrames.prefix(12).map { "\($0):\($0 < after.count ? after[$0].level : 0)/\($0 < before.count ? before[$0].level : 0)" })")
    // What is felt: every 25 ms window's peak acceleration within 2.5 dB, or below the threshold.
    let felt = try ControlRateFeelTests.peaks(played, .simLRA, controlRate: true)
    let expected = try ControlRateFeelTests.peaks(original, .simLRA, controlRate: true)
    // A silent event at the end makes no frames in a clip: the windows past the shorter are still.
    var differentWindows: [(Double, Double)] = []
    for index in 0..<max(felt.count, expected.count) where compared(index, period: 0.025) && compared(index + 1, period: 0.025) {
      let a: Double = index < felt.count ? felt[index] : 0
      let b: Double = index < expected.count ? expected[index] : 0
      if abs(a - b) > 0.25 * max(a, b) && max(a, b) >= ChannelResponseMap.detectionThreshold { differentWindows.append((a, b))}
    }
    #expect(differentWindows.isEmpty, "\(name): \(differentWindows.count) windows feel different: \(differentWindows.prefix(3))")
    print(
      "[round trip] \(name): \(conversion.playsTheSame ? "lossless" : "losses reported"), \(differentFrames.count) of \(before.count) frames differ by > 2 levels"
        + (excluded.isEmpty ? "" : ", \(excluded.count) overlap stretch(es) left out"))
  }
}
