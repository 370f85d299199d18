// A port of code the Core Haptics tutorials teach, changed only in the import line (and
// UIKit/SwiftUI replaced by plain classes): it must compile against CoreHapticsCompat as it is
// written for Apple's framework.
import CoreHapticsCompat

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

  /// The tutorial's signature: the swipe's velocity, in points per second (Core Graphics'
  /// `CGPoint`, which `import CoreHaptics` brings along).
  func updateSwish(velocity: CGPoint) {
    updateSwish(dx: Float(velocity.x), dy: Float(velocity.y))
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

