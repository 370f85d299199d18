import Foundation
import HapticAudio
import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticTestSupport
import Testing

@testable import HapticEngine

/// Audio events on the host in step with the board (issue 18): through the file sink, the
/// audio onsets land within 5 ms of the haptic onsets on the board clock.
@Suite(.serialized) struct AudioSyncTests {
  /// A short click: 20 ms (or `seconds`) of a 2 kHz tone at 48 kHz, written as CAF (the
  /// tutorials' format).
  static func click(_ name: String, seconds: Double = 0.020) throws -> String {
    let path = NSTemporaryDirectory() + "hapticctl-sync-\(getpid())-\(name).caf"
    let samples = (0..<Int(seconds * 48_000)).map { Float(0.8 * sin(2 * Double.pi * 2_000 * Double($0) / 48_000)) }
    try AudioFile.write(AudioClip(sampleRate: 48_000, samples: samples), to: path, format: .caf)
    return path
  }

  /// A virtual-clock board with a drive log, an engine with a file sink on the link's clock.
  struct Rig {
    let link: SimulatorBoardLink
    let engine: HapticEngine
    let sink: AudioFileSink

    init(latency: Double = 0) throws {
      link = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: .simLRA), clock: .virtual, logsDrive: true)
      let link = link
      sink = AudioFileSink(path: NSTemporaryDirectory() + "hapticctl-sync-\(getpid())-\(UUID().uuidString).wav") { link.hostNow }
      var configuration = HapticEngine.Configuration()
      configuration.audioOutput = sink
      engine = try HapticEngine(link: link, configuration: configuration)
      try engine.start()
    }

    func run(_ seconds: Double) { engine.advance(to: link.hostNow + seconds) }

    /// Board seconds of each sound's onset in the sink's file.
    func audioOnsets() throws -> [Double] {
      try sink.close()
      return try OnsetAnalysis.audioOnsets(file: sink.path, origin: sink.origin).map { link.boardSeconds(atHost: $0) ?? .nan }
    }

    /// Board seconds of each haptic onset in the board's drive log.
    var hapticOnsets: [Double] {
      let board = link.snapshot
      let frequency = Double(board.configuration.clockFrequency)
      return OnsetAnalysis.driveOnsets(board.driveLog.map { (Double(board.boardTicks(at: $0.time)) / frequency, $0.level) })
    }
  }

  @Test("The splash and nomNom patterns: audio onsets within 5 ms of the haptic onsets")
  func audioInStep() throws {
    let splash = try Self.click("splash")
    let crunch = try Self.click("crunch")
    defer {
      for path in [splash, crunch] { try? FileManager.default.removeItem(atPath: path) }
    }
    let audio = { (time: Double, path: String) in HapticEvent(.audioCustom, time: time, waveformPath: path) }
    let tap = { (time: Double) in
      HapticEvent(.hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.6)])
    }
    let patterns = [
      HapticPattern(events: [tap(0.001), audio(0.001, splash)]),
      HapticPattern(events: [tap(0), audio(0, crunch), tap(0.3), audio(0.3, crunch)]),
    ]
    for pattern in patterns {
      let rig = try Rig()
      defer { try? FileManager.default.removeItem(atPath: rig.sink.path) }
      rig.run(0.1)
      let player = try rig.engine.makePlayer(with: pattern)
      try player.start(atTime: 0)
      rig.run(0.6)
      let haptic = rig.hapticOnsets
      let heard = try rig.audioOnsets()
      #expect(haptic.count == pattern.events.count / 2, "haptic onsets \(haptic)")
      #expect(heard.count == haptic.count, "audio onsets \(heard)")
      print("audio vs haptic onsets (ms): \(zip(haptic, heard).map { (($1 - $0) * 1000 * 100).rounded() / 100 })")
      for (h, a) in zip(haptic, heard) {
        #expect(abs(h - a) <= 0.005, "haptic \(h) s, audio \(a) s on the board clock")
      }
      #expect(rig.sink.onsets.count == 1 && rig.sink.onsets[0].tag > 0)
    }
  }

  @Test("Stop silences the audio from its frame; playsHapticsOnly and isMutedForAudio play none")
  func stopAndMute() throws {
    let long = try Self.click("long")
    defer { try? FileManager.default.removeItem(atPath: long) }
    let pattern = HapticPattern(events: [
      HapticEvent(.hapticContinuous, time: 0, duration: 1),
      HapticEvent(.audioCustom, time: 0, waveformPath: long), HapticEvent(.audioCustom, time: 0.5, waveformPath: long),
    ])
    let rig = try Rig()
    defer { try? FileManager.default.removeItem(atPath: rig.sink.path) }
    let player = try rig.engine.makePlayer(with: pattern)
    try player.start(atTime: 0)
    rig.run(0.2)
    try player.stop(atTime: 0)
    rig.run(0.6)
    #expect(try rig.audioOnsets().count == 1, "the second click, after the stop, is silent")

    let quiet = try Rig()
    defer { try? FileManager.default.removeItem(atPath: quiet.sink.path) }
    quiet.engine.playsHapticsOnly = true
    try quiet.engine.makePlayer(with: pattern).start(atTime: 0)
    quiet.run(0.2)
    quiet.engine.playsHapticsOnly = false
    quiet.engine.isMutedForAudio = true
    try quiet.engine.makePlayer(with: pattern).start(atTime: 0)
    quiet.run(0.8)
    #expect(quiet.sink.onsets.isEmpty)
    #expect(quiet.link.snapshot.driveLog.contains { $0.level != 0 }, "haptics still play")
  }
}
