import CoreHapticsCompat
import Foundation
import HapticAHAP
import HapticAudio
import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticTestSupport
import Testing

/// The tutorials' code (ContentViewPort.swift, HapticManagerPort.swift, HapticPalettePort.swift) on the simulator, and Apple's API surface.
@Suite(.serialized) struct CoreHapticsCompatTests {
  /// A virtual-clock simulated board with a drive log, and a Core Haptics engine over it
  /// (with `audio`, its audio events go to a file sink on the link's clock).
  struct Rig {
    let link: SimulatorBoardLink
    let engine: HapticEngine
    let compat: CHHapticEngine
    let sink: AudioFileSink?

    init(profile: BoardProfile = .simLRA, audio: String? = nil) throws {
      link = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: profile), clock: .virtual, logsDrive: true)
      let link = link
      sink = audio.map { path in AudioFileSink(path: path) { link.hostNow } }
      var configuration = HapticEngine.Configuration()
      configuration.audioOutput = sink
      engine = try HapticEngine(link: link, configuration: configuration)
      compat = CHHapticEngine(engine: engine)
    }

    func run(_ seconds: Double) { engine.advance(to: link.hostNow + seconds) }

    /// The board's drive changes as (board frame, level, frequency).
    var drive: [String] {
      let board = link.snapshot
      let ticksPerFrame = Double(board.configuration.ticksPerFrame)
      return board.driveLog.map { change in
        let frame = Int((Double(board.boardTicks(at: change.time)) / ticksPerFrame).rounded())
        return "\(frame):\(change.level)/\(change.frequency)"
      }
    }
  }

  /// Plays `pattern` through hapticctl's own API on a fresh rig (the port users had to write
  /// before) and returns its drive, relative to the first driven frame.
  static func directDrive(_ pattern: HapticPattern) throws -> [String] {
    let rig = try Rig()
    try rig.engine.start()
    rig.run(0.05)
    let player = try rig.engine.makePlayer(with: pattern)
    try player.start(atTime: 0)
    rig.run(2.5)
    return relative(rig.drive)
  }

  /// Drive changes with frames counted from the first one.
  static func relative(_ drive: [String]) -> [String] {
    guard let first = drive.first.flatMap({ Int($0.split(separator: ":")[0]) }) else { return [] }
    return drive.map { entry in
      let parts = entry.split(separator: ":", maxSplits: 1)
      return "\(Int(parts[0])! - first):\(parts[1])"
    }
  }

  @Test("The SwiftUI example: prepareHaptics() and complexSuccess() play, with the drive of a direct port")
  func swiftUIExample() throws {
    let view = ContentView()
    view.prepareHaptics()  // the configured board: the simulator, in real time
    #expect(view.engine != nil && view.log.isEmpty, "\(view.log)")
    view.complexSuccess()
    #expect(view.log.isEmpty, "\(view.log)")
    // On a virtual clock, the same code drives the board exactly as hapticctl's own API does.
    let rig = try Rig()
    try rig.compat.start()
    rig.run(0.05)
    view.engine = rig.compat
    view.complexSuccess()
    rig.run(2.5)
    var events = [HapticEvent(.hapticTransient, time: 0, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 1)])]
    for i in stride(from: 0, to: 1, by: 0.1) {
      events.append(
        HapticEvent(.hapticTransient, time: i, parameters: [.init(.hapticIntensity, Double(Float(i))), .init(.hapticSharpness, Double(Float(i)))]))
    }
    for i in stride(from: 0, to: 1, by: 0.1) {
      events.append(
        HapticEvent(
          .hapticTransient, time: 1 + i,
          parameters: [.init(.hapticIntensity, Double(Float(1 - i))), .init(.hapticSharpness, Double(Float(1 - i)))]))
    }
    let drive = Self.relative(rig.drive)
    #expect(drive.count > 100)
    #expect(drive == (try Self.directDrive(HapticPattern(events: events))))
  }

  @Test("The game's HapticManager: patterns (arrays, curves, a dictionary) and a live swish")
  func hapticManager() throws {
    let rig = try Rig()
    let manager = try #require(HapticManager(engine: rig.compat))
    try manager.createSwishPlayer()
    for make in [manager.slicePattern, manager.nomNomPattern, manager.splashPattern] {
      let before = rig.drive.count
      manager.playPattern(try make())
      rig.run(0.8)
      #expect(rig.drive.count > before + 5, "the pattern drove the board")
      #expect(rig.link.snapshot.driveLog.last?.level == 0, "and ended at rest")
    }
    // The swish: muted until a swipe, then its intensity follows the swipe's speed.
    manager.startSwishPlayer()
    rig.run(0.1)
    #expect(rig.link.snapshot.driveLog.last?.level == 0, "muted")
    manager.updateSwish(velocity: CGPoint(x: 800, y: 200))
    rig.run(0.1)
    let fast = abs(rig.link.snapshot.driveLog.last?.level ?? 0)
    manager.updateSwish(dx: 250, dy: 0)
    rig.run(0.1)
    let slow = abs(rig.link.snapshot.driveLog.last?.level ?? 0)
    #expect(fast > slow && slow > 0, "fast \(fast), slow \(slow)")
    manager.stopSwishPlayer()
    rig.run(0.1)
    #expect(rig.link.snapshot.driveLog.last?.level == 0)
    // A board reset: the reset handler restarts the engine and recreates the player.
    rig.link.resetBoard()
    rig.run(0.2)
    #expect(rig.engine.isRunning, "restarted by the reset handler")
    manager.playPattern(try manager.nomNomPattern())
    rig.run(0.5)
    #expect(rig.link.snapshot.driveLog.contains { $0.level != 0 })
  }

  @Test("Apple's haptic palette logic: files play with the drive of a direct port; the touch palette follows the finger", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func hapticPalette() throws {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
    let controller = HapticPaletteController()
    controller.filesFolder = corpus
    controller.createAndStartHapticEngine()  // the configured board: the simulator, in real time
    #expect(controller.messages.isEmpty, "\(controller.messages)")
    for name in ["apple__unityplugins__Effects_Recoil", "apple__unityplugins__Ricochet_Spawn"] {
      let rig = try Rig()
      controller.engine = rig.compat
      controller.configureEngine()
      rig.run(0.05)
      controller.playHapticsFile(named: name)
      rig.run(2.5)
      #expect(controller.messages.isEmpty, "\(controller.messages)")
      let pattern = try AHAPReader().read(contentsOf: corpus.appendingPathComponent(name + ".ahap").path).pattern
      let drive = Self.relative(rig.drive)
      #expect(drive.count > 20)
      #expect(drive == (try Self.directDrive(pattern)), "\(name)")
    }
    // The touch palette: louder with a higher touch, silent after touch up.
    let rig = try Rig(profile: .unoDRV2605L)
    controller.engine = rig.compat
    controller.configureEngine()
    controller.createContinuousHapticPlayer()
    controller.touchDown(x: 0.5, y: 0.3)
    rig.run(0.1)
    let low = rig.link.snapshot.driveLog.last?.level ?? 0
    controller.update(x: 0.5, y: 0.9)
    rig.run(0.1)
    let high = rig.link.snapshot.driveLog.last?.level ?? 0
    #expect(high > low && low > 0, "low \(low), high \(high)")
    controller.touchUp()
    rig.run(0.2)
    #expect(rig.link.snapshot.driveLog.last?.level == 0)
    #expect(controller.messages == ["Continuous player finished"], "\(controller.messages)")
  }

  @Test("The game's sounds: registered CAF resources and a waveform path play in step with the haptics (within 5 ms)")
  func soundsInStep() throws {
    let folder = NSTemporaryDirectory() + "hapticctl-compat-audio-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let click = (0..<960).map { Float(0.8 * sin(2 * Double.pi * 1_500 * Double($0) / 48_000)) }
    for name in ["nomNom", "splash"] {
      try AudioFile.write(AudioClip(sampleRate: 48_000, samples: click), to: "\(folder)/\(name).caf", format: .caf)
    }
    let sounds = ["nomNom": "nomNom", "splash": "splash"].mapValues { URL(fileURLWithPath: "\(folder)/\($0).caf") }
    for play in ["nomNom", "splash"] {
      let rig = try Rig(audio: "\(folder)/\(play).wav")
      let manager = try #require(HapticManager(engine: rig.compat, sounds: sounds))
      rig.run(0.05)
      manager.playPattern(try play == "nomNom" ? manager.nomNomPattern() : manager.splashPattern())
      rig.run(0.8)
      let sink = try #require(rig.sink)
      try sink.close()
      let heard = try OnsetAnalysis.audioOnsets(file: sink.path, origin: sink.origin).map { rig.link.boardSeconds(atHost: $0) ?? .nan }
      let board = rig.link.snapshot
      let felt = OnsetAnalysis.driveOnsets(
        board.driveLog.map { (Double(board.boardTicks(at: $0.time)) / Double(board.configuration.clockFrequency), $0.level) })
      print("\(play): audio \(heard), haptic \(felt)")
      #expect(heard.count == (play == "nomNom" ? 2 : 1), "\(play): audio onsets \(heard)")
      #expect(felt.count >= heard.count, "\(play): haptic onsets \(felt)")
      for (index, onset) in heard.enumerated() where index < felt.count {
        #expect(abs(onset - felt[index]) <= 0.005, "\(play): audio \(onset) s, haptic \(felt[index]) s")
      }
    }
    // A pattern that plays a registered resource cannot be exported (Apple's rule).
    let rig = try Rig()
    let manager = try #require(HapticManager(engine: rig.compat, sounds: sounds))
    #expect(throws: CHHapticError.self) { try manager.nomNomPattern().exportDictionary() }
    #expect(throws: CHHapticError.self) { try rig.compat.unregisterAudioResource(999_999) }
    #expect(throws: CHHapticError.self) { try rig.compat.registerAudioResource(URL(fileURLWithPath: "/nonexistent.caf")) }
  }

  @Test("Bad values throw Apple's errors with a real description; nothing traps")
  func errors() throws {
    func code(_ body: () throws -> Void) -> CHHapticError.Code? {
      do {
        try body()
        return nil
      } catch let error as CHHapticError {
        #expect(error.localizedDescription.contains("\(error.code.rawValue)"), "\(error.localizedDescription)")
        #expect(!error.localizedDescription.contains("could not be completed"))
        return error.code
      } catch {
        Issue.record("not a CHHapticError: \(error)")
        return nil
      }
    }
    let tap = { (time: TimeInterval) in CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: time) }
    #expect(code { _ = try CHHapticPattern(events: [tap(.nan)], parameters: []) } == .invalidEventTime)
    #expect(code { _ = try CHHapticPattern(events: [tap(-1)], parameters: []) } == .invalidEventTime)
    let long = CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 0, duration: -0.5)
    #expect(code { _ = try CHHapticPattern(events: [long], parameters: []) } == .invalidEventDuration)
    let nan = CHHapticEvent(
      eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: .nan)], relativeTime: 0)
    #expect(code { _ = try CHHapticPattern(events: [nan], parameters: []) } == .badEventEntry)
    let odd = CHHapticEvent(eventType: CHHapticEvent.EventType(rawValue: "HapticRumble"), parameters: [], relativeTime: 0)
    #expect(code { _ = try CHHapticPattern(events: [odd], parameters: []) } == .invalidEventType)
    let step = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: .infinity)
    #expect(code { _ = try CHHapticPattern(events: [tap(0)], parameters: [step]) } == .badParameterEntry)
    #expect(code { _ = try CHHapticPattern(dictionary: [.pattern: "nope"]) } == .invalidPatternDictionary)
    #expect(code { _ = try CHHapticPattern(contentsOf: URL(fileURLWithPath: "/nonexistent.ahap")) } == .fileNotFound)
    let rig = try Rig()
    #expect(code { try rig.compat.makePlayer(with: try CHHapticPattern(events: [tap(0)], parameters: [])).start(atTime: 0) }
      == .engineNotRunning)
    try rig.compat.start()
    let player = try rig.compat.makeAdvancedPlayer(with: try CHHapticPattern(events: [tap(0)], parameters: []))
    for time in [TimeInterval.nan, .infinity, 1e300] {
      #expect(code { try player.start(atTime: time) } == .invalidTime)
    }
    #expect(code { try player.seek(toOffset: -1) } == .operationNotPermitted)
    player.playbackRate = .nan  // ignored, as Apple ignores rates ≤ 0
    #expect(player.playbackRate == 1)
    let error = CHHapticError(.engineNotRunning, "x")
    #expect((error as NSError).domain == CHHapticErrorDomain && (error as NSError).code == -4805)
  }

  @Test("Patterns round-trip through exportDictionary() and read AHAP files", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func dictionariesAndFiles() throws {
    let manager = try #require(HapticManager(engine: try Rig().compat))
    let splash = try manager.splashPattern()
    let exported = try splash.exportDictionary()
    #expect(exported[.pattern] is [Any])
    let again = try CHHapticPattern(dictionary: exported)
    #expect(try Self.json(again.exportDictionary()) == (try Self.json(exported)))
    #expect(try Self.json(exported).contains("\"ParameterValue\":0.9"))
    #expect(abs(splash.duration - 0.45) < 1e-9)
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
    let file = try CHHapticPattern(contentsOf: corpus.appendingPathComponent("nthState__Haptrix__Sparkle.ahap"))
    #expect(file.duration > 0.5)
  }

  /// A pattern dictionary as sorted JSON text.
  static func json(_ dictionary: [CHHapticPattern.Key: Any]) throws -> String {
    func plain(_ value: Any) -> Any {
      if let keyed = value as? [CHHapticPattern.Key: Any] {
        return Dictionary(uniqueKeysWithValues: keyed.map { ($0.key.rawValue, plain($0.value)) })
      }
      if let array = value as? [Any] { return array.map(plain) }
      return value
    }
    let data = try JSONSerialization.data(withJSONObject: plain(dictionary), options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test("Capabilities, start and stop with completion handlers, async stop")
  func lifecycle() async throws {
    #expect(CHHapticEngine.capabilitiesForHardware().supportsHaptics)
    let capability = CHHapticEngine.capabilitiesForHardware()
    let sharpness = try capability.attributes(forEventParameter: .hapticSharpness, eventType: .hapticContinuous)
    #expect(sharpness.minValue == 0 && sharpness.maxValue == 1 && abs(sharpness.defaultValue - 0.422601) < 1e-6)
    #expect(try capability.attributes(forDynamicParameter: .hapticSharpnessControl).minValue == -1)
    #expect(throws: CHHapticError.self) { _ = try CHHapticEngine(environment: ["HAPTICCTL_BOARD": "nope"]) }
    let engine = try CHHapticEngine(environment: ["HAPTICCTL_BOARD": "sim-erm"])
    let started = await withCheckedContinuation { continuation in
      engine.start { error in continuation.resume(returning: error == nil) }
    }
    #expect(started)
    let player = try engine.makePlayer(with: try CHHapticPattern(events: [
      CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)
    ], parameters: []))
    try player.start(atTime: CHHapticTimeImmediate)
    try await engine.stop()
    #expect(!engine.engine.isRunning)
    let finished = await withCheckedContinuation { continuation in
      engine.notifyWhenPlayersFinished { _ in
        continuation.resume(returning: true)
        return .leaveEngineRunning
      }
    }
    #expect(finished, "called at once on a stopped engine")
  }
}
