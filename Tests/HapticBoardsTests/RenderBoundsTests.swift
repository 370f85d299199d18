import Foundation
import HapticCore
import HapticRenderer
import Testing

@testable import HapticBoards

/// A render always ends: at most ``HapticRenderer/FrameRenderer/maximumTail`` after the last
/// voice, whatever the profile. Found by the board-file fuzzer: a board whose overdrive voltage
/// was 6.7e128 × its rated one (validation now refuses it) gave a profile whose render of a
/// 0.12 s pattern ran on past a million frames.
@Suite struct RenderBoundsTests {
  @Test("The fuzzer's board: its profile's render ends within a second of the pattern")
  func tailIsBounded() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts/fuzz/regressions/board-file/overdrive-1e128.json")
    let file = try JSONDecoder().decode(BoardFile.self, from: Data(contentsOf: url))
    #expect(!BoardValidation.problems(file).isEmpty, "validation refuses it")
    let profile = BoardValidation.profile(file)
    let pattern = HapticPattern(events: [
      HapticEvent(.hapticTransient, time: 0, parameters: [EventParameter(.hapticIntensity, 1)]),
      HapticEvent(
        .hapticContinuous, time: 0.02, duration: 0.1,
        parameters: [EventParameter(.hapticIntensity, 0.7), EventParameter(.hapticSharpness, 0.3)]),
    ])
    var renderer = try FrameRenderer(pattern: pattern, profile: profile)
    var count = 0
    var last: Frame?
    while let frame = renderer.next(), count < 2_000_000 {
      count += 1
      last = frame
    }
    let seconds = Double(count) * profile.framePeriod
    #expect(FrameRenderer.maximumTail == 1 && seconds <= 0.12 + 1 + 0.01, "\(count) frames")
    #expect(last?.level == 0, "it ends at rest")
  }
}
