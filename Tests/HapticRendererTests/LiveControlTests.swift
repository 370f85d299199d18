import Foundation
import HapticCore
import Testing

@testable import HapticRenderer

/// Live dynamic parameters (a player's `sendParameters`, the board server's 60 Hz streams)
/// inserted into a pattern's voices as it plays.
@Suite("Live controls in PatternVoices")
struct LiveControlTests {
  static let held = HapticPattern(events: [
    HapticEvent(.hapticContinuous, time: 0, duration: 30, parameters: [EventParameter(.hapticIntensity, 1)])
  ])

  @Test("Steps already past are dropped but the one in force: 1,800 changes keep a handful, and every frame is as if all were kept")
  func boundedAndExact() throws {
    var live = try PatternVoices(pattern: Self.held, profile: .simLRA, options: RenderOptions(controlRate: false))
    var steps: [DynamicParameter] = []
    var targets: [FrameTarget] = []
    // An intensity change every 16 frames (60 Hz at 1 kHz), each taking effect at once.
    for frame in 0..<(1_800 * 16) {
      if frame % 16 == 0 {
        let value = 0.55 + 0.45 * sin(Double(frame) / 300)
        let step = DynamicParameter(.hapticIntensityControl, value: value, time: Double(frame) * 0.001)
        steps.append(step)
        live.insert(step)
      }
      targets.append(live.next())
    }
    #expect(live.controlStepCount <= 2, "kept \(live.controlStepCount) of \(steps.count) steps")
    // The same pattern with every step in it from the start renders the same targets.
    let pattern = HapticPattern(events: Self.held.events, parameters: steps)
    var reference = try PatternVoices(pattern: pattern, profile: .simLRA, options: RenderOptions(controlRate: false))
    let expected = (0..<targets.count).map { _ in reference.next() }
    let differing = zip(targets, expected).filter { $0.0 != $0.1 }.count
    #expect(differing == 0, "\(differing) of \(targets.count) frames differ")
  }

  @Test("A step given for later stays until its time; an earlier-timed one given after it still applies first")
  func futureSteps() throws {
    var live = try PatternVoices(pattern: Self.held, profile: .simLRA, options: RenderOptions(controlRate: false))
    for _ in 0..<100 { _ = live.next() }
    live.insert(DynamicParameter(.hapticIntensityControl, value: 0.2, time: 0.5))
    live.insert(DynamicParameter(.hapticIntensityControl, value: 0.6, time: 0.2))
    for _ in 100..<300 { _ = live.next() }
    // Past 0.2 s the 0.6 step is in force; 0.5's is still to come and kept.
    live.insert(DynamicParameter(.hapticIntensityControl, value: 0.9, time: 0.7))
    #expect(live.controlStepCount == 3, "\(live.controlStepCount)")
  }
}
