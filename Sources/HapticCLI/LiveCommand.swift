import Foundation
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

  /// Applies one command to every player of the run (each plays its channels, or its
  /// actuators on a rig); returns true for `stop`.
  static func apply(_ command: String, _ argument: String?, to players: [any LivePlayer]) throws -> Bool {
    let action = try action(command, argument)
    for player in players {
      switch action {
      case .parameters(let parameters): try player.sendParameters(parameters, atTime: 0)
      case .pause: try player.pause(atTime: 0)
      case .resume: try player.resume(atTime: 0)
      case .seek(let offset): try player.seek(toOffset: offset, atTime: 0)
      case .stop: try player.stop(atTime: 0)
      case .start, .set: break  // not commands
      }
    }
    if case .stop = action { return true }
    return false
  }

  /// Reads commands from standard input on a thread of its own (`name`) and applies them to
  /// `players` until input ends, `isOver` says the run is over, or `stop` (then `stopped`).
  static func startReader(
    _ players: [any LivePlayer], name: String, isOver: @escaping @Sendable () -> Bool, stopped: @escaping @Sendable () -> Void
  ) {
    let thread = Thread {
      while let line = readLine() {
        if isOver() { return }
        let words = line.split(separator: " ").map(String.init)
        guard let command = words.first else { continue }
        do {
          if try apply(command, words.dropFirst().first, to: players) { return stopped() }
        } catch {
          printError("live: \(error)")
        }
      }
    }
    thread.name = name
    thread.start()
  }
}

/// What `--live` commands reach: an engine's player, or a rig's (their methods' typed errors
/// are `Error`s here).
protocol LivePlayer: Sendable {
  func sendParameters(_ parameters: [DynamicParameter], atTime time: Double) throws
  func pause(atTime time: Double) throws
  func resume(atTime time: Double) throws
  func seek(toOffset offset: Double, atTime time: Double) throws
  func stop(atTime time: Double) throws
}

extension HapticAdvancedPatternPlayer: LivePlayer {}
extension RigPlayer: LivePlayer {}
