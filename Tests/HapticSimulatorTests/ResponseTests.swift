import HapticCore
import HapticRenderer
import Testing

@testable import HapticSimulator

/// Simulates `pattern` on `profile` and measures each channel.
func simulate(_ pattern: HapticPattern, on profile: BoardProfile) throws -> [ResponseMetrics] {
  let configuration = SimulatorConfiguration(profile: profile)
  var simulation = try PatternSimulation(pattern: pattern, configuration: configuration)
  var analyzer = ResponseAnalyzer(channels: profile.channels.count, stepRate: configuration.physicsRate)
  simulation.run(into: &analyzer)
  return analyzer.metrics
}

func transient(intensity: Double = 1, sharpness: Double = 0.5, at time: Double = 0) -> HapticPattern {
  HapticPattern(events: [
    HapticEvent(
      .hapticTransient, time: time,
      parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
  ])
}

/// Issue 5's crispness targets: the renderer's overdrive and braking must earn them.
@Suite struct ResponseTests {
  @Test(arguments: [0.0, 0.5, 1.0])
  func loneTransientOnSimLRAIsCrispAndFelt(sharpness: Double) throws {
    let metrics = try simulate(transient(sharpness: sharpness), on: .simLRA)[0]
    print("sim-lra transient sharpness \(sharpness): \(metrics)")
    #expect(metrics.peak >= 0.75)
    #expect(try #require(metrics.riseMilliseconds) <= 9)
    #expect(try #require(metrics.stopMilliseconds) <= 12)
  }

  @Test func unshapedLRAIsSlow() throws {
    // The same actuator with no overdrive or braking: a rated-drive burst rises in ~45 ms and
    // rings for ~80 ms, which is what the renderer's shaping removes.
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.physicsRate = 16_000
    var physics = ActuatorPhysics(parameters: configuration.actuators[0], stepRate: 16_000)
    var analyzer = ResponseAnalyzer(channels: 1, stepRate: 16_000)
    for step in 0..<8_000 {
      let level = step < 3_200 ? 0.5 : 0  // 200 ms at rated drive, then nothing
      let a = physics.step(level: level, frequency: 170)
      analyzer.record(time: Double(step + 1) / 16_000, channel: 0, drive: level, acceleration: a)
    }
    let metrics = analyzer.metrics[0]
    #expect(try #require(metrics.riseMilliseconds) > 40)
    #expect(try #require(metrics.stopMilliseconds) > 70)
  }

  @Test func loneTransientOnSimERM() throws {
    let metrics = try simulate(transient(), on: .simERM)[0]
    print("sim-erm transient: \(metrics)")
    #expect(metrics.peak > 0.1)
    #expect(metrics.riseMilliseconds != nil)
  }

  @Test func continuousEventReachesItsLevelAndStops() throws {
    let pattern = HapticPattern(events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: 0.3,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)])
    ])
    for profile in BoardProfile.builtIn {
      let metrics = try simulate(pattern, on: profile)[0]
      print("\(profile.id) continuous 300 ms: \(metrics)")
      // sim-lra drives sharpness 0.5 at 203 Hz, off its 170 Hz resonance: 0.45 G at rated drive.
      #expect(metrics.peak > (profile.id == "sim-lra" ? 0.4 : 0.9))
      #expect(metrics.duration >= 0.3)
    }
  }
}
