import CoreHapticsCompat
import Foundation
import HapticAHAP
import HapticAudio
import HapticCore
import HapticEngine
import HapticRenderer
import HapticSimulator
import HapticTestSupport
import Testing

/// SwiftUI's feedback kinds on a board.
@Suite struct SensoryFeedbackTests {
  @Test("Every feedback kind plays its preset, impacts scale with intensity, flexibility picks the tap")
  func feedbackPlays() throws {
    let kinds: [SensoryFeedback] = [
      .success, .warning, .error, .selection, .increase, .decrease, .start, .stop, .alignment, .levelChange, .impact,
      .impact(weight: .light), .impact(weight: .heavy, intensity: 0.5), .impact(flexibility: .solid),
      .impact(flexibility: .rigid), .impact(flexibility: .soft, intensity: 0.3),
    ]
    for kind in kinds {
      let rig = try CoreHapticsCompatTests.Rig()
      try rig.compat.play(kind)  // starts the engine
      rig.run(0.4)
      #expect(rig.link.snapshot.driveLog.contains { $0.level != 0 }, "\(kind)")
    }
    #expect(SensoryFeedback.impact(flexibility: .solid) == .impact(weight: .medium))
    #expect(SensoryFeedback.impact(flexibility: .rigid) != .impact(flexibility: .soft))
    // Intensity scales an impact; values out of range are clamped, not trapped on.
    let peak = { (feedback: SensoryFeedback) -> Int in
      let rig = try CoreHapticsCompatTests.Rig()
      try rig.compat.play(feedback)
      rig.run(0.3)
      return rig.link.snapshot.driveLog.map { abs($0.level) }.max() ?? 0
    }
    #expect(try peak(.impact(weight: .heavy, intensity: 0.3)) < (try peak(.impact(weight: .heavy))))
    #expect(try peak(.impact(weight: .heavy, intensity: .nan)) == (try peak(.impact(weight: .heavy))))
  }
}

/// Random and extreme values into every public call of the compatibility layer: Apple's errors,
/// never a trap.
@Suite struct CompatNeverTrapTests {
  static let extremes: [Double] = [.nan, .infinity, -.infinity, -1, 0, 0.5, 1, 1e300, -1e300, .greatestFiniteMagnitude]

  @Test("Extreme values in events, parameters, curves, dictionaries and player calls")
  func extremeValues() throws {
    var random = SplitMix(seed: 18)
    // Calls get an extreme value two times in three, pattern values one time in fifteen.
    func pick(_ odds: Int = 2) -> Double {
      random.next(in: 0...odds) != 0 ? Self.extremes[random.next(in: 0...(Self.extremes.count - 1))] : Double(random.next(in: 0...1_000)) / 1_000
    }
    func value() -> Double {
      random.next(in: 0...14) == 0 ? Self.extremes[random.next(in: 0...(Self.extremes.count - 1))] : Double(random.next(in: 0...1_000)) / 1_000
    }
    let rig = try CoreHapticsCompatTests.Rig()
    try rig.compat.start()
    var made = 0
    for _ in 0..<300 {
      let event = CHHapticEvent(
        eventType: random.next(in: 0...1) == 0 ? .hapticTransient : .hapticContinuous,
        parameters: [
          CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(value())),
          CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(value())),
        ],
        relativeTime: value(), duration: value())
      let step = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: Float(value()), relativeTime: value())
      let curve = CHHapticParameterCurve(
        parameterID: .hapticSharpnessControl, controlPoints: [.init(relativeTime: 0, value: Float(value())), .init(relativeTime: value(), value: 1)],
        relativeTime: value())
      _ = try? CHHapticPattern(dictionary: [.pattern: [[CHHapticPattern.Key.event: [
        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient, CHHapticPattern.Key.time: pick(),
      ]]]])
      _ = try? CHHapticPattern(events: [event], parameterCurves: [curve])
      guard let pattern = try? CHHapticPattern(events: [event], parameters: [step]),
        let player = try? rig.compat.makeAdvancedPlayer(with: pattern)
      else { continue }
      made += 1
      for _ in 0..<4 {
        let time = pick()
        switch random.next(in: 0...6) {
        case 0: _ = try? player.start(atTime: time)
        case 1: _ = try? player.stop(atTime: time)
        case 2: _ = try? player.sendParameters([step], atTime: time)
        case 3: _ = try? player.scheduleParameterCurve(curve, atTime: time)
        case 4: _ = try? player.seek(toOffset: time)
        case 5: player.playbackRate = Float(time)
        default: player.loopEnd = time
        }
      }
      rig.run(0.01)
    }
    #expect(made > 50, "\(made) of 300 made a player")
    #expect(rig.engine.isRunning)
  }
}
