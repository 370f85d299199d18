import Foundation
import HapticAHAP
import HapticCore
import HapticRenderer
import HapticTestSupport
import Testing

@testable import HapticSimulator

/// Control-rate evaluation (docs/semantics.md §14) on host-shaped boards, judged by what the
/// user feels: the simulated acceleration of a control-rate render against an exact one.
@Suite("Control-rate evaluation, felt")
struct ControlRateFeelTests {
  static let corpus = TestCorpus.ahapFolder
  static let files = TestCorpus.ahapFiles

  /// The largest |acceleration| of each 25 ms window (several cycles, so a shifted carrier phase does not move it).
  struct WindowPeaks: SimulationTrace {
    var peaks: [Double] = []
    mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
      let window = Int(time / 0.025)
      while peaks.count <= window { peaks.append(0) }
      peaks[window] = max(peaks[window], abs(acceleration))
    }
  }

  static func peaks(_ pattern: HapticPattern, _ profile: BoardProfile, controlRate: Bool) throws -> [Double] {
    var simulation = try PatternSimulation(
      pattern: pattern, configuration: SimulatorConfiguration(profile: profile),
      options: RenderOptions(controlRate: controlRate))
    var trace = WindowPeaks()
    simulation.run(into: &trace)
    return trace.peaks
  }

  @Test("Corpus: the felt envelope of a control-rate render is the exact one's", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"), arguments: files)
  func corpusFeelsTheSame(_ name: String) throws {
    let pattern = try AHAPReader().read(contentsOf: Self.corpus.appendingPathComponent(name).path).pattern
    for profile in BoardProfile.builtIn where profile.shaping == .host {
      let ramped = try Self.peaks(pattern, profile, controlRate: true)
      let exact = try Self.peaks(pattern, profile, controlRate: false)
      #expect(abs(ramped.count - exact.count) <= 4, "\(name) \(profile.id): \(ramped.count) vs \(exact.count) windows")
      var worst = 0.0
      var differing = 0
      for (a, b) in zip(ramped, exact) {
        // Within 25 % (2.5 dB, the amplitude JND) or below the detection threshold.
        let excess = abs(a - b) - 0.25 * max(a, b)
        if excess > 0 && max(a, b) >= ChannelResponseMap.detectionThreshold {
          differing += 1
          worst = max(worst, abs(a - b))
        }
      }
      // The shaper's corrections follow the state closely, so a target that differs in the
      // fourth digit could start another, equally good correction: allow a window in a
      // hundred (measured over the corpus: none).
      #expect(differing * 100 <= max(exact.count, 100), "\(name) \(profile.id): \(differing) of \(exact.count) windows differ")
      #expect(worst <= 0.15, "\(name) \(profile.id): a window off by \(worst) G")
      if differing > 0 { print("[\(profile.id)] \(name): \(differing) of \(exact.count) windows differ by > 2.5 dB, worst \(worst) G") }
    }
  }
}
