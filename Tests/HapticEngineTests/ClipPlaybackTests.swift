import Foundation
import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// A `.haptic` clip's pattern keeps how its intensities play (the amplitude law, emphases out of
/// the curve's reach: docs/semantics.md §17) when a player cuts it for a seek, a rate or a loop.
@Suite("Players keep a clip's intensity law and scope")
struct ClipPlaybackTests {
  /// What `HapticClip.pattern()` makes of a clip at amplitude 0.09 for 0.4 s with an emphasis of
  /// 1 at 0.2 s: one continuous event under an intensity curve of √0.09 × 0.8 where the emphasis
  /// is, and the emphasis as a full transient.
  static var clip: HapticPattern {
    var pattern = HapticPattern(
      events: [
        HapticEvent(
          .hapticContinuous, time: 0, duration: 0.4,
          parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5.squareRoot())]),
        HapticEvent(.hapticTransient, time: 0.2, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)]),
      ],
      curves: [
        ParameterCurve(
          .hapticIntensityControl, time: 0,
          controlPoints: [.init(time: 0, value: 0.3), .init(time: 0.2, value: 0.24), .init(time: 0.4, value: 0.3)])
      ])
    pattern.intensityControlScope = .continuousEvents
    pattern.intensityLaw = .amplitudeSquareRoot
    return pattern
  }

  @Test("The excerpt for a seek at half speed keeps the law and the scope")
  func excerptKeepsThem() {
    let excerpt = PlayerTrack.excerpt(Self.clip, from: 0.1, rate: 0.5, loopEnd: nil)
    #expect(excerpt.intensityLaw == .amplitudeSquareRoot)
    #expect(excerpt.intensityControlScope == .continuousEvents)
  }

  @Test("A player plays the clip as the renderer does: the emphasis at full strength, the vibration by the amplitude law")
  func playsTheClip() throws {
    let expected = Array(try FrameRenderer(pattern: Self.clip, profile: .simLRA))
    var perceptual = Self.clip
    perceptual.intensityLaw = .perceptual
    let otherLaw = Array(try FrameRenderer(pattern: perceptual, profile: .simLRA))
    let lone = Array(try FrameRenderer(pattern: HapticPattern(events: [Self.clip.events[1]]), profile: .simLRA))
    let h = try EngineHarness()
    h.run(0.05)
    let player = try h.engine.makePlayer(with: Self.clip)
    try player.start(atTime: h.link.hostNow + 0.05)
    let start = h.link.hostNow + 0.05
    h.run(0.6)
    let onset = try #require(h.onset(after: start - 0.001))
    // The vibration 0.1 s in: the renderer's level (0.09 of rated drive's acceleration), not the
    // perceptual model's (which every start used to apply: the law was lost with the scope).
    let level = abs(h.level(at: onset + 0.1))
    #expect(abs(level - abs(expected[100].level)) <= 1, "level \(level), the clip's \(expected[100].level)")
    // The two laws 80–120 ms in, on average (a level this low is dithered between two levels):
    func mean(_ frames: [Frame]) -> Double { Double(frames[80..<120].map { abs($0.level) }.reduce(0, +)) / 40 }
    // 4.45 against 2.9 levels: 3.7 dB apart, beyond the 2.2–2.5 dB JND.
    let apart = 20 * log10(mean(expected) / mean(otherLaw))
    #expect(abs(apart) >= 2.5, "the laws differ here: \(mean(otherLaw)) against \(mean(expected))")
    // The emphasis drives as hard as a lone transient (it was scaled by the curve's 0.24).
    let peak = h.link.snapshot.driveLog.filter { $0.time > onset + 0.15 }.map { abs($0.level) }.max() ?? 0
    #expect(peak == lone.map { abs($0.level) }.max() && peak > 100, "peak \(peak)")
  }
}
