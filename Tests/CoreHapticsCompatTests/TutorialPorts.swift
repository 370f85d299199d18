// Ports of the code the Core Haptics tutorials teach, changed only in the import line (and
// UIKit/SwiftUI replaced by plain classes): these files must compile against CoreHapticsCompat
// as they are written for Apple's framework.
import CoreHapticsCompat
import Foundation

/// The SwiftUI example ("play custom vibrations"): `prepareHaptics()` on appear,
/// `complexSuccess()` on tap. A SwiftUI `View` stand-in.
final class ContentView {
  var engine: CHHapticEngine?
  var log: [String] = []

  func prepareHaptics() {
    guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }
    do {
      engine = try CHHapticEngine()
      try engine?.start()
    } catch {
      log.append("There was an error creating the engine: \(error.localizedDescription)")
    }
  }

  func complexSuccess() {
    // make sure that the device supports haptics
    guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }
    var events = [CHHapticEvent]()

    // create one intense, sharp tap
    let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)
    let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: 1)
    let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensity, sharpness], relativeTime: 0)
    events.append(event)

    for i in stride(from: 0, to: 1, by: 0.1) {
      let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(i))
      let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(i))
      let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensity, sharpness], relativeTime: i)
      events.append(event)
    }

    for i in stride(from: 0, to: 1, by: 0.1) {
      let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(1 - i))
      let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(1 - i))
      let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensity, sharpness], relativeTime: 1 + i)
      events.append(event)
    }

    // convert those events into a pattern and play it immediately
    do {
      let pattern = try CHHapticPattern(events: events, parameters: [])
      let player = try engine?.makePlayer(with: pattern)
      try player?.start(atTime: 0)
    } catch {
      log.append("Failed to play pattern: \(error.localizedDescription).")
    }
  }
}

/// A game's haptic manager in the style of the "Snip The Vine" tutorial: an engine kept
/// running, restarted from the reset handler, sounds registered as audio resources and played
/// in step with the haptics, a looping swish with dynamic parameters, and patterns from
/// dictionaries. (`Bundle.main.url(forResource:withExtension:)` is replaced by the `sounds`
/// argument: a test has no app bundle.)
final class HapticManager {
  let hapticEngine: CHHapticEngine
  var swishPlayer: CHHapticAdvancedPatternPlayer?
  var stoppedReasons: [CHHapticEngine.StoppedReason] = []
  var sounds: [String: URL] = [:]
  var nomNomAudio: CHHapticAudioResourceID?

  init?(engine: CHHapticEngine? = nil, sounds: [String: URL] = [:]) {
    let hapticCapability = CHHapticEngine.capabilitiesForHardware()
    guard hapticCapability.supportsHaptics else { return nil }
    do {
      hapticEngine = try engine ?? CHHapticEngine()
    } catch let error {
      print("Haptic engine Creation Error: \(error)")
      return nil
    }
    do {
      try hapticEngine.start()
    } catch let error {
      print("Haptic failed to start Error: \(error)")
    }
    hapticEngine.isAutoShutdownEnabled = true
    hapticEngine.resetHandler = { [weak self] in
      self?.handleEngineReset()
    }
    hapticEngine.stoppedHandler = { [weak self] reason in
      self?.stoppedReasons.append(reason)
    }
    self.sounds = sounds
    setupResources()
  }

  func setupResources() {
    do {
      if let path = sounds["nomNom"] {
        nomNomAudio = try hapticEngine.registerAudioResource(path)
      }
    } catch {
      print("Failed to load audio: \(error)")
    }
  }

  func handleEngineReset() {
    do {
      try hapticEngine.start()
      setupResources()
      try createSwishPlayer()
    } catch {
      print("Failed to restart the engine: \(error)")
    }
  }

  func slicePattern() throws -> CHHapticPattern {
    let slice = CHHapticEvent(
      eventType: .hapticContinuous,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.35),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.25),
      ],
      relativeTime: 0,
      duration: 0.25)
    let snip = CHHapticEvent(
      eventType: .hapticTransient,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
      ],
      relativeTime: 0.08)
    let curve = CHHapticParameterCurve(
      parameterID: .hapticIntensityControl,
      controlPoints: [
        .init(relativeTime: 0, value: 0.2),
        .init(relativeTime: 0.08, value: 1.0),
        .init(relativeTime: 0.24, value: 0.2),
        .init(relativeTime: 0.34, value: 0.6),
        .init(relativeTime: 0.5, value: 0),
      ],
      relativeTime: 0)
    return try CHHapticPattern(events: [slice, snip], parameterCurves: [curve])
  }

  func nomNomPattern() throws -> CHHapticPattern {
    let rumble1 = CHHapticEvent(
      eventType: .hapticContinuous,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.3),
      ],
      relativeTime: 0,
      duration: 0.15)
    let rumble2 = CHHapticEvent(
      eventType: .hapticContinuous,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.4),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.1),
      ],
      relativeTime: 0.3,
      duration: 0.3)
    let crunch1 = CHHapticEvent(
      eventType: .hapticTransient,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
      ],
      relativeTime: 0)
    let crunch2 = CHHapticEvent(
      eventType: .hapticTransient,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.3),
      ],
      relativeTime: 0.3)
    var events = [rumble1, rumble2, crunch1, crunch2]
    if let audioID = nomNomAudio {
      events.append(CHHapticEvent(audioResourceID: audioID, parameters: [], relativeTime: 0))
      events.append(CHHapticEvent(audioResourceID: audioID, parameters: [], relativeTime: 0.3))
    }
    return try CHHapticPattern(events: events, parameters: [])
  }

  func splashPattern() throws -> CHHapticPattern {
    var events: [[CHHapticPattern.Key: Any]] = []
    if let splash = sounds["splash"] {
      events.append([
        CHHapticPattern.Key.event: [
          CHHapticPattern.Key.eventType: CHHapticEvent.EventType.audioCustom,
          CHHapticPattern.Key.time: 0.001,
          CHHapticPattern.Key.eventWaveformPath: splash,
        ]
      ])
    }
    return try CHHapticPattern(dictionary: [
      CHHapticPattern.Key.pattern: events + [
        [
          CHHapticPattern.Key.event: [
            CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient,
            CHHapticPattern.Key.time: 0.001,
            CHHapticPattern.Key.eventParameters: [
              [
                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity,
                CHHapticPattern.Key.parameterValue: 0.9,
              ]
            ],
          ]
        ],
        [
          CHHapticPattern.Key.event: [
            CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticContinuous,
            CHHapticPattern.Key.time: 0.05,
            CHHapticPattern.Key.eventDuration: 0.4,
            CHHapticPattern.Key.eventParameters: [
              [
                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity,
                CHHapticPattern.Key.parameterValue: 0.4,
              ],
              [
                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticSharpness,
                CHHapticPattern.Key.parameterValue: 0.1,
              ],
              [
                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.releaseTime,
                CHHapticPattern.Key.parameterValue: 0.4,
              ],
            ],
          ]
        ],
      ]
    ])
  }

  func createSwishPlayer() throws {
    let swish = CHHapticEvent(
      eventType: .hapticContinuous,
      parameters: [
        CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.5),
        CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
      ],
      relativeTime: 0,
      duration: 60)
    let pattern = try CHHapticPattern(events: [swish], parameters: [])
    swishPlayer = try hapticEngine.makeAdvancedPlayer(with: pattern)
    swishPlayer?.loopEnabled = true
    swishPlayer?.playbackRate = 1
    swishPlayer?.isMuted = true
  }

  func startSwishPlayer() {
    do {
      try hapticEngine.start()
      try swishPlayer?.start(atTime: CHHapticTimeImmediate)
    } catch {
      print("Swish player start error: \(error)")
    }
  }

  func stopSwishPlayer() {
    do {
      try swishPlayer?.stop(atTime: CHHapticTimeImmediate)
    } catch {
      print("Swish player stop error: \(error)")
    }
  }

  func updateSwish(dx: Float, dy: Float) {
    let speed = sqrt(dx * dx + dy * dy)
    let intensity = max(0, min(1, speed / 1000))
    let sharpness = max(-1, min(1, dy / 500))
    let intensityParameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: intensity, relativeTime: 0)
    let sharpnessParameter = CHHapticDynamicParameter(parameterID: .hapticSharpnessControl, value: sharpness, relativeTime: 0)
    do {
      swishPlayer?.isMuted = intensity == 0
      try swishPlayer?.sendParameters([intensityParameter, sharpnessParameter], atTime: CHHapticTimeImmediate)
    } catch let error {
      print("Swish player dynamic update error: \(error)")
    }
  }

  func playPattern(_ pattern: CHHapticPattern) {
    do {
      let player = try hapticEngine.makePlayer(with: pattern)
      try player.start(atTime: CHHapticTimeImmediate)
    } catch {
      print("Failed to play pattern: \(error)")
    }
  }
}

/// The logic of Apple's haptic palette sample: an engine for haptics only, a continuous player
/// whose intensity and sharpness follow a touch, and AHAP files played by name. (The view
/// controller's UIKit parts are left out; `filesFolder` stands in for the app bundle.)
final class HapticPaletteController {
  var engine: CHHapticEngine!
  var continuousPlayer: CHHapticAdvancedPatternPlayer!
  let initialIntensity: Float = 1.0
  let initialSharpness: Float = 0.5
  var engineNeedsStart = true
  var filesFolder = URL(fileURLWithPath: ".")
  var messages: [String] = []

  lazy var supportsHaptics: Bool = {
    return CHHapticEngine.capabilitiesForHardware().supportsHaptics
  }()

  func createAndStartHapticEngine() {
    // Create and configure a haptic engine.
    do {
      engine = try CHHapticEngine()
    } catch let error {
      fatalError("Engine Creation Error: \(error)")
    }
    configureEngine()
  }

  func configureEngine() {
    // Mute audio to reduce latency for collision haptics.
    engine.playsHapticsOnly = true
    engine.isMutedForAudio = true

    // The stopped handler alerts you of engine stoppage.
    engine.stoppedHandler = { reason in
      self.messages.append("Stop Handler: The engine stopped for reason: \(reason.rawValue)")
      switch reason {
      case .audioSessionInterrupt: self.messages.append("Audio session interrupt")
      case .applicationSuspended: self.messages.append("Application suspended")
      case .idleTimeout: self.messages.append("Idle timeout")
      case .systemError: self.messages.append("System error")
      case .notifyWhenFinished: self.messages.append("Playback finished")
      case .gameControllerDisconnect: self.messages.append("Controller disconnected.")
      case .engineDestroyed: self.messages.append("Engine destroyed.")
      @unknown default:
        self.messages.append("Unknown error")
      }
    }

    // The reset handler provides an opportunity to restart the engine.
    engine.resetHandler = {
      self.messages.append("Reset Handler: Restarting the engine.")
      do {
        // Try restarting the engine.
        try self.engine.start()
        // Indicate that the next time the app requires a haptic, the app doesn't need to call engine.start().
        self.engineNeedsStart = false
        // Recreate the continuous player.
        self.createContinuousHapticPlayer()
      } catch {
        self.messages.append("Failed to start the engine")
      }
    }

    // Start the haptic engine for the first time.
    do {
      try self.engine.start()
    } catch {
      messages.append("Failed to start the engine: \(error)")
    }
  }

  /// - Tag: CreateContinuousPattern
  func createContinuousHapticPlayer() {
    // Create an intensity parameter:
    let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: initialIntensity)
    // Create a sharpness parameter:
    let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: initialSharpness)
    // Create a continuous event with a long duration from the parameters.
    let continuousEvent = CHHapticEvent(
      eventType: .hapticContinuous, parameters: [intensity, sharpness], relativeTime: 0, duration: 100)
    do {
      // Create a pattern from the continuous haptic event.
      let pattern = try CHHapticPattern(events: [continuousEvent], parameters: [])
      // Create a player from the continuous haptic pattern.
      continuousPlayer = try engine.makeAdvancedPlayer(with: pattern)
    } catch let error {
      messages.append("Pattern Player Creation Error: \(error)")
    }
    continuousPlayer.completionHandler = { _ in
      self.messages.append("Continuous player finished")
    }
  }

  /// A touch went down at normalised (x, y): the continuous player starts with them.
  func touchDown(x: Float, y: Float) {
    guard supportsHaptics else { return }
    update(x: x, y: y)
    do {
      try continuousPlayer.start(atTime: CHHapticTimeImmediate)
    } catch let error {
      messages.append("Error starting the continuous haptic player: \(error)")
    }
  }

  /// The touch moved: intensity follows y, sharpness x.
  func update(x: Float, y: Float) {
    let intensityParameter = CHHapticDynamicParameter(
      parameterID: .hapticIntensityControl, value: max(0, min(1, y)), relativeTime: 0)
    let sharpnessParameter = CHHapticDynamicParameter(
      parameterID: .hapticSharpnessControl, value: max(-1, min(1, x - 0.5)), relativeTime: 0)
    do {
      try continuousPlayer.sendParameters([intensityParameter, sharpnessParameter], atTime: 0)
    } catch let error {
      messages.append("Dynamic Parameter Error: \(error)")
    }
  }

  /// The touch ended.
  func touchUp() {
    do {
      try continuousPlayer.stop(atTime: CHHapticTimeImmediate)
    } catch let error {
      messages.append("Error stopping the continuous haptic player: \(error)")
    }
  }

  /// Plays an AHAP file by name.
  func playHapticsFile(named filename: String) {
    // If the device doesn't support Core Haptics, abort.
    if !supportsHaptics { return }
    // Express the path to the AHAP file before attempting to load it.
    let path = filesFolder.appendingPathComponent(filename + ".ahap")
    do {
      // Start the engine in case it's idle.
      try engine.start()
      // Tell the engine to play a pattern.
      try engine.playPattern(from: path)
    } catch { // Engine startup errors
      messages.append("An error occured playing \(filename): \(error).")
    }
  }
}
