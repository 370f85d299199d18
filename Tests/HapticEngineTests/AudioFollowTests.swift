import Foundation
import HapticAudio
import HapticCore
import HapticTestSupport
import Testing

@testable import HapticEngine

/// A player's audio follows what its haptics do (issue 18, docs/semantics.md §13.9): a seek, a
/// loop wrap and a rate change move the sounds with the transients they were written beside; a
/// pause silences a sound under way and a resume goes on from the same sample.
@Suite(.serialized) struct AudioFollowTests {
  typealias Rig = AudioSyncTests.Rig

  /// A transient and a click at each of `times`.
  static func taps(at times: [Double], sound: String) -> [HapticEvent] {
    times.flatMap { time in
      [
        HapticEvent(.hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.6)]),
        HapticEvent(.audioCustom, time: time, waveformPath: sound),
      ]
    }
  }

  /// Every haptic onset has its sound within 5 ms, and there are as many sounds as onsets.
  static func expectInStep(_ rig: Rig, onsets expected: Int, _ what: String) throws {
    let haptic = rig.hapticOnsets
    let heard = try rig.audioOnsets()
    #expect(haptic.count == expected, "\(what): haptic onsets \(haptic)")
    #expect(heard.count == haptic.count, "\(what): audio onsets \(heard), haptic \(haptic)")
    for (h, a) in zip(haptic, heard) {
      #expect(abs(h - a) <= 0.005, "\(what): haptic \(h) s, audio \(a) s on the board clock")
    }
  }

  @Test("A seek moves the sounds with the transients: skipped ones are silent, later ones on time")
  func seek() throws {
    let click = try AudioSyncTests.click("follow-seek")
    defer { try? FileManager.default.removeItem(atPath: click) }
    let rig = try Rig()
    defer { try? FileManager.default.removeItem(atPath: rig.sink.path) }
    let player = try rig.engine.makeAdvancedPlayer(with: HapticPattern(events: Self.taps(at: [0, 0.3, 0.6], sound: click)))
    try player.start(atTime: 0)
    rig.run(0.1)
    try player.seek(toOffset: 0.5)  // skips 0.3; 0.6 plays 0.1 s from now
    rig.run(0.5)
    try Self.expectInStep(rig, onsets: 2, "seek")
  }

  @Test("A loop replays the sounds at every wrap, also at playback rate 2")
  func loop() throws {
    let click = try AudioSyncTests.click("follow-loop")
    defer { try? FileManager.default.removeItem(atPath: click) }
    for rate in [1.0, 2.0] {
      let rig = try Rig()
      defer { try? FileManager.default.removeItem(atPath: rig.sink.path) }
      let player = try rig.engine.makeAdvancedPlayer(with: HapticPattern(events: Self.taps(at: [0, 0.2], sound: click)))
      player.loopEnabled = true
      player.loopEnd = 0.4
      player.playbackRate = rate
      try player.start(atTime: 0)
      rig.run(0.39 / rate * 3)  // three passes: six taps
      try player.stop(atTime: 0)
      rig.run(0.1)
      try Self.expectInStep(rig, onsets: 6, "loop at rate \(rate)")
    }
  }

  @Test("Pause silences a sound under way; resume goes on where it was, no sample twice")
  func pauseResume() throws {
    let tone = try AudioSyncTests.click("follow-pause", seconds: 0.3)
    defer { try? FileManager.default.removeItem(atPath: tone) }
    let rig = try Rig()
    defer { try? FileManager.default.removeItem(atPath: rig.sink.path) }
    let pattern = HapticPattern(events: [
      HapticEvent(.hapticContinuous, time: 0, duration: 0.3), HapticEvent(.audioCustom, time: 0, waveformPath: tone),
    ])
    let player = try rig.engine.makeAdvancedPlayer(with: pattern)
    try player.start(atTime: 0)
    rig.run(0.1)
    try player.pause(atTime: 0)
    rig.run(0.2)
    try player.resume(atTime: 0)
    rig.run(0.5)
    let haptic = rig.hapticOnsets
    let heard = try rig.audioOnsets()
    #expect(haptic.count == 2 && heard.count == 2, "haptic \(haptic), audio \(heard)")
    for (h, a) in zip(haptic, heard) { #expect(abs(h - a) <= 0.005, "haptic \(h) s, audio \(a) s") }
    // The whole 0.3 s tone is heard once, in two stretches: 0.1 s before the pause, 0.2 s after.
    let written = try AudioFile.read(rig.sink.path)
    let stretches = Self.soundingStretches(written.samples, sampleRate: written.sampleRate)
    #expect(stretches.count == 2, "stretches \(stretches)")
    #expect(abs(stretches.reduce(0) { $0 + $1.upperBound - $1.lowerBound } - 0.3) <= 0.002, "stretches \(stretches)")
    #expect(abs((stretches.first.map { $0.upperBound - $0.lowerBound } ?? 0) - 0.1) <= 0.002, "stretches \(stretches)")
  }

  /// The stretches (seconds) where `samples` sound, gaps under 1 ms bridged.
  static func soundingStretches(_ samples: [Float], sampleRate: Double) -> [ClosedRange<Double>] {
    var stretches: [ClosedRange<Int>] = []
    for (index, sample) in samples.enumerated() where abs(sample) > 0.05 {
      if let last = stretches.last, index - last.upperBound < Int(sampleRate / 1000) {
        stretches[stretches.count - 1] = last.lowerBound...index
      } else {
        stretches.append(index...index)
      }
    }
    return stretches.map { Double($0.lowerBound) / sampleRate...Double($0.upperBound + 1) / sampleRate }
  }
}
