import Foundation
import HapticCore
import HapticRenderer
import PropertyBased
import HapticLocks
import Testing

@testable import HapticEngine

/// No public engine or player call traps, whatever the values (issue 18): bad ones throw
/// Core Haptics' errors. Random and extreme values go into patterns and into every player call.
@Suite struct NeverTrapTests {
  /// NaN, ±∞, huge, tiny, negative, ordinary.
  static let extremes: [Double] = [
    .nan, .infinity, -.infinity, -1, -0.5, -0.0, 0, 1e-300, 0.001, 0.3, 1, 2.5, 1e9, 1e300, -1e300,
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
  ]

  /// The codes a bad value may be refused with.
  static let refusals: Set<String> = [
    "invalidTime", "invalidEventTime", "invalidEventDuration", "badEventEntry", "badParameterEntry",
    "invalidPatternData", "operationNotPermitted",
  ]

  /// An extreme value three times in four, else an ordinary one (0…2).
  static func pick(_ random: inout SplitMix) -> Double {
    random.next(in: 0...3) == 0 ? Double(random.next(in: 0...2_000)) / 1_000 : extremes[random.next(in: 0...(extremes.count - 1))]
  }

  /// Pattern values: extreme one time in twenty (so that about a third of the patterns are
  /// playable and the player calls run on them).
  static func patternValue(_ random: inout SplitMix) -> Double {
    random.next(in: 0...19) == 0 ? extremes[random.next(in: 0...(extremes.count - 1))] : Double(random.next(in: 0...2_000)) / 1_000
  }

  static func pattern(_ random: inout SplitMix) -> HapticPattern {
    var events: [HapticEvent] = []
    for _ in 0..<random.next(in: 0...4) {
      let type: HapticEventType = random.next(in: 0...1) == 0 ? .hapticTransient : .hapticContinuous
      events.append(
        HapticEvent(
          type, time: patternValue(&random), duration: random.next(in: 0...1) == 0 ? nil : patternValue(&random),
          parameters: [EventParameter(.hapticIntensity, patternValue(&random)), EventParameter(.hapticSharpness, patternValue(&random))]))
    }
    let parameters = (0..<random.next(in: 0...2)).map { _ in
      DynamicParameter(.hapticIntensityControl, value: patternValue(&random), time: patternValue(&random))
    }
    let curves = (0..<random.next(in: 0...1)).map { _ in
      ParameterCurve(
        .hapticSharpnessControl, time: patternValue(&random),
        controlPoints: [.init(time: 0, value: patternValue(&random)), .init(time: patternValue(&random), value: patternValue(&random))])
    }
    return HapticPattern(events: events, parameters: parameters, curves: curves)
  }

  /// Runs `call`; an error must be an engine error with one of the refusal codes.
  static func survives(_ what: String, _ call: () throws(HapticEngineError) -> Void) {
    do {
      try call()
    } catch {
      #expect(refusals.contains(error.code.name), "\(what): \(error)")
      #expect(error.localizedDescription.contains(error.code.name), "a real localizedDescription")
    }
  }

  /// How many generated patterns made a player (the calls ran on those).
  static let played = Locked(0)

  @Test("Random and extreme values never trap any engine or player call")
  func extremeValues() async throws {
    await propertyCheck(count: 150, input: Gen.uint64()) { seed in
      var random = SplitMix(seed: seed)
      let harness: EngineHarness
      do {
        harness = try EngineHarness()
      } catch {
        Issue.record("no engine: \(error)")
        return
      }
      let pattern = Self.pattern(&random)
      let playable = pattern.problem == nil && pattern.duration <= 86_400
        && pattern.events.allSatisfy { $0.time + ($0.duration ?? 0) <= 86_400 }
      var made: HapticAdvancedPatternPlayer?
      Self.survives("makeAdvancedPlayer") { () throws(HapticEngineError) in
        made = try harness.engine.makeAdvancedPlayer(with: pattern)
      }
      #expect(made != nil || !playable, "a playable pattern makes a player")
      guard let player = made else { return }
      Self.played.withLock { $0 += 1 }
      for _ in 0..<6 {
        let time = Self.pick(&random)
        switch random.next(in: 0...8) {
        case 0: Self.survives("start") { () throws(HapticEngineError) in try player.start(atTime: time) }
        case 1: Self.survives("stop") { () throws(HapticEngineError) in try player.stop(atTime: time) }
        case 2:
          let parameter = DynamicParameter(.hapticIntensityControl, value: Self.pick(&random), time: Self.pick(&random))
          Self.survives("sendParameters") { () throws(HapticEngineError) in
            try player.sendParameters([parameter], atTime: time)
          }
        case 3:
          let curve = ParameterCurve(
            .hapticIntensityControl, time: 0,
            controlPoints: [.init(time: 0, value: Self.pick(&random)), .init(time: Self.pick(&random), value: 1)])
          Self.survives("scheduleParameterCurve") { () throws(HapticEngineError) in
            try player.scheduleParameterCurve(curve, atTime: time)
          }
        case 4: Self.survives("seek") { () throws(HapticEngineError) in try player.seek(toOffset: time) }
        case 5: player.loopEnd = time
        case 6: player.playbackRate = time
        case 7: Self.survives("pause") { () throws(HapticEngineError) in try player.pause(atTime: time) }
        default: Self.survives("resume") { () throws(HapticEngineError) in try player.resume(atTime: time) }
        }
        harness.run(0.02)
      }
      harness.run(0.2)
      #expect(harness.engine.isRunning)
    }
    // Enough cases reach the player calls (most patterns with a bad value are refused).
    #expect(Self.played.withLock { $0 } >= 30, "\(Self.played.withLock { $0 }) of 150 made a player")
  }

  @Test("Patterns with bad times, durations or values are refused with Apple's codes")
  func badPatternsAreRefused() throws {
    let harness = try EngineHarness()
    func code(_ pattern: HapticPattern) -> String? {
      do {
        _ = try harness.engine.makePlayer(with: pattern)
        return nil
      } catch {
        return error.code.name
      }
    }
    let transient = { (time: Double) in HapticEvent(.hapticTransient, time: time) }
    #expect(code(HapticPattern(events: [transient(.nan)])) == "invalidEventTime")
    #expect(code(HapticPattern(events: [transient(-1)])) == "invalidEventTime")
    #expect(code(HapticPattern(events: [EngineHarness.continuous(-0.5)])) == "invalidEventDuration")
    #expect(
      code(HapticPattern(events: [HapticEvent(.hapticTransient, time: 0, parameters: [EventParameter(.hapticIntensity, .nan)])]))
        == "badEventEntry")
    #expect(code(HapticPattern(parameters: [DynamicParameter(.hapticIntensityControl, value: 1, time: .infinity)])) == "badParameterEntry")
    #expect(code(HapticPattern(events: [transient(0.1)])) == nil)
    // The renderer refuses them too (no trap in PatternVoices).
    #expect(throws: RenderError.self) { try FrameRenderer(pattern: HapticPattern(events: [transient(.nan)]), profile: .simLRA) }
  }

  @Test("Times that are not finite, or more than a day ahead, are invalidTime")
  func badTimes() throws {
    let harness = try EngineHarness()
    let player = try harness.engine.makePlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    for time in [Double.nan, .infinity, -.infinity, 1e300, 200_000] {
      #expect(throws: HapticEngineError.self) { try player.start(atTime: time) }
      do {
        try player.start(atTime: time)
      } catch {
        #expect(error.code == .invalidTime, "\(time)")
        #expect(error.localizedDescription.contains("invalidTime (-4840)"))
      }
    }
    try player.start(atTime: -1)  // the past: now
    harness.run(0.05)
    #expect(harness.onset(after: 0) != nil)
  }
}
