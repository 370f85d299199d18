import HapticCore
import HapticEngine
import HapticServer

/// The `--live` commands.
enum LiveCommand {
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// Applies one command to every player of the run (each plays its channels); returns true for
  /// `stop`.
  static func apply(_ command: String, _ argument: String?, to players: [HapticAdvancedPatternPlayer]) throws -> Bool {
    func value() throws -> Double {
      guard let argument, let number = Double(argument), number.isFinite else {
        throw Problem(description: "'\(command)' needs a number, e.g. '\(command) 0.5'")
      }
      return number
    }
    let controls: [String: DynamicParameterID] = [
      "intensity": .hapticIntensityControl, "sharpness": .hapticSharpnessControl,
      "attack": .hapticAttackTimeControl, "decay": .hapticDecayTimeControl, "release": .hapticReleaseTimeControl,
    ]
    if let id = controls[command] {
      let parameter = DynamicParameter(id, value: try value(), time: 0)
      for player in players { try player.sendParameters([parameter]) }
      return false
    }
    switch command {
    case "pause": for player in players { try player.pause() }
    case "resume": for player in players { try player.resume() }
    case "seek":
      let offset = try value()
      for player in players { try player.seek(toOffset: offset) }
    case "stop":
      for player in players { try player.stop() }
      return true
    default:
      throw Problem(
        description: "unknown command '\(command)' (intensity X, sharpness X, attack X, decay X, release X, pause, resume, seek S, stop)")
    }
    return false
  }

  /// One command as a server player action (`send --live --server`).
  static func serverAction(_ command: String, _ argument: String?) throws -> PlayerAction {
    func value() throws -> Double {
      guard let argument, let number = Double(argument), number.isFinite else {
        throw Problem(description: "'\(command)' needs a number, e.g. '\(command) 0.5'")
      }
      return number
    }
    let controls: [String: DynamicParameterID] = [
      "intensity": .hapticIntensityControl, "sharpness": .hapticSharpnessControl,
      "attack": .hapticAttackTimeControl, "decay": .hapticDecayTimeControl, "release": .hapticReleaseTimeControl,
    ]
    if let id = controls[command] { return .parameters([DynamicParameter(id, value: try value(), time: 0)]) }
    switch command {
    case "pause": return .pause
    case "resume": return .resume
    case "seek": return .seek(offset: try value())
    case "stop": return .stop(delay: 0)
    default:
      throw Problem(
        description: "unknown command '\(command)' (intensity X, sharpness X, attack X, decay X, release X, pause, resume, seek S, stop)")
    }
  }
}
