import Foundation
import HapticCore
import HapticRenderer
import Testing

@testable import HapticSimulator

/// The actuator physics against theory (issue 5: τ within 5 %, resonance within 2 %).
@Suite struct PhysicsTests {
  let lra = ActuatorParameters(model: BoardProfile.simLRA.channels[0], shaping: .host)
  let erm = ActuatorParameters(model: BoardProfile.simERM.channels[0], shaping: .host)

  @Test func lraStepResponseEnvelopeFollowsTwoQOverOmega0() {
    var physics = ActuatorPhysics(parameters: lra, stepRate: 16_000)
    let tau = 2 * lra.qualityFactor / (2 * Double.pi * lra.resonantFrequency)
    var envelope: [Double] = []
    for _ in 0..<16_000 {  // one second ≈ 48 τ: the final value is reached
      _ = physics.step(level: lra.ratedAmplitude, frequency: lra.resonantFrequency)
      envelope.append(physics.lraEnvelope)
    }
    let final = envelope.last!
    let crossing = envelope.firstIndex { $0 >= final * (1 - exp(-1)) }!
    let measured = Double(crossing + 1) / 16_000
    #expect(abs(measured - tau) / tau < 0.05, "τ measured \(measured * 1000) ms, theory \(tau * 1000) ms")
    // A typical LRA: about 1.5 G at rated drive in steady state.
    #expect(abs(final - 1.5) < 0.05, "steady state \(final) G")
  }

  @Test func lraFreeDecayHasTheSameTimeConstant() {
    var physics = ActuatorPhysics(parameters: lra, stepRate: 16_000)
    for _ in 0..<16_000 { _ = physics.step(level: lra.ratedAmplitude, frequency: lra.resonantFrequency) }
    let start = physics.lraEnvelope
    var steps = 0
    while physics.lraEnvelope > start * exp(-1) {
      _ = physics.step(level: 0, frequency: 0)
      steps += 1
    }
    let tau = lra.envelopeTimeConstant
    let measured = Double(steps) / 16_000
    #expect(abs(measured - tau) / tau < 0.05, "decay τ \(measured * 1000) ms vs \(tau * 1000) ms")
  }

  @Test func lraResonancePeakIsAtF0() {
    var best = (frequency: 0.0, amplitude: 0.0)
    for tenth in stride(from: 1500, through: 1900, by: 5) {
      let frequency = Double(tenth) / 10
      var physics = ActuatorPhysics(parameters: lra, stepRate: 16_000)
      var peak = 0.0
      for step in 0..<12_000 {  // 0.75 s; measure the last 0.25 s (steady state)
        let a = physics.step(level: 0.25, frequency: frequency)
        if step >= 8_000 { peak = max(peak, abs(a)) }
      }
      if peak > best.amplitude { best = (frequency, peak) }
    }
    #expect(abs(best.frequency - 170) / 170 < 0.02, "peak at \(best.frequency) Hz")
  }

  @Test func ermSpinUpTimeConstant() {
    var physics = ActuatorPhysics(parameters: erm, stepRate: 16_000)
    var steps = 0
    while physics.motorSpeed < erm.ratedAmplitude * (1 - exp(-1)) {
      _ = physics.step(level: erm.ratedAmplitude, frequency: 0)
      steps += 1
    }
    let measured = Double(steps) / 16_000
    #expect(abs(measured - 0.050) / 0.050 < 0.05, "spin-up τ \(measured * 1000) ms")
    // Rated drive gives the rated 1.0 G at 200 Hz once spun up.
    var peak = 0.0
    for step in 0..<16_000 {
      let a = physics.step(level: erm.ratedAmplitude, frequency: 0)
      if step > 12_000 { peak = max(peak, abs(a)) }
    }
    #expect(abs(peak - 1.0) < 0.02, "ERM steady state \(peak) G")
  }

  @Test func ermStictionKeepsAWeakDriveFromStarting() {
    var physics = ActuatorPhysics(parameters: erm, stepRate: 16_000)
    for _ in 0..<1_600 { _ = physics.step(level: 0.2 * erm.ratedAmplitude, frequency: 0) }
    #expect(physics.motorSpeed == 0)
    for _ in 0..<1_600 { _ = physics.step(level: erm.ratedAmplitude, frequency: 0) }
    #expect(physics.motorSpeed > 0.5 * erm.ratedAmplitude)
  }

  @Test func closedLoopDriverHoldsTheTargetAtResonance() {
    let uno = ActuatorParameters(model: BoardProfile.unoDRV2605L.channels[0], shaping: .driver)
    var physics = ActuatorPhysics(parameters: uno, stepRate: 16_000)
    for _ in 0..<8_000 { _ = physics.step(level: 0.5, frequency: 0) }
    // Half of rated drive → half of the rated acceleration.
    #expect(abs(physics.lraEnvelope - 0.75) < 0.05, "closed loop holds \(physics.lraEnvelope) G")
    var steps = 0
    while physics.lraEnvelope > 0.026 && steps < 16_000 {
      _ = physics.step(level: 0, frequency: 0)
      steps += 1
    }
    // The driver brakes: far faster than the ~80 ms free ring-down.
    #expect(Double(steps) / 16 < 20, "closed-loop stop \(Double(steps) / 16) ms")
  }
}
