import HapticCore
import HapticEngine
import HapticRig
import HapticServer

/// The `--live` commands: `intensity X`, `sharpness X`, `attack X`, `decay X`, `release X`,
/// `pause`, `resume`, `seek S`, `stop`.
enum LiveCommand {
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// One command as a player action (the server's, which `send --server` posts as it is).
  static func action(_ command: String, _ argument: String?) throws -> PlayerAction {
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

  /// Applies one command to every player of the run (each plays its channels); returns true for
  /// `stop`.
  static func apply(_ command: String, _ argument: String?, to players: [HapticAdvancedPatternPlayer]) throws -> Bool {
    let action = try action(command, argument)
    for player in players {
      switch action {
      case .parameters(let parameters): try player.sendParameters(parameters)
      case .pause: try player.pause()
      case .resume: try player.resume()
      case .seek(let offset): try player.seek(toOffset: offset)
      case .stop: try player.stop()
      case .start, .set: break  // not commands
      }
    }
    if case .stop = action { return true }
    return false
  }

  /// Applies one command to every rig player of a `send --rig` run, on one instant of the rig's
  /// timeline per player; returns true for `stop`.
  static func apply(_ command: String, _ argument: String?, to players: [RigPlayer]) throws -> Bool {
    let action = try action(command, argument)
    for player in players {
      switch action {
      case .parameters(let parameters): try player.sendParameters(parameters)
      case .pause: try player.pause()
      case .resume: try player.resume()
      case .seek(let offset): try player.seek(toOffset: offset)
      case .stop: try player.stop()
      case .start, .set: break  // not commands
      }
    }
    if case .stop = action { return true }
    return false
  }
}
