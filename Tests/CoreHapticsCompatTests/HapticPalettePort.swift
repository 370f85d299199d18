// A port of code the Core Haptics tutorials teach, changed only in the import line (and
// UIKit/SwiftUI replaced by plain classes): it must compile against CoreHapticsCompat as it is
// written for Apple's framework.
import CoreHapticsCompat

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
