import ArgumentParser
import Foundation
import HapticAHAP
import HapticCore
import HapticEngine
import HapticLocks
import HapticRig

/// What `send --rig` does when one of the rig's boards is lost.
enum BoardLossPolicy: String, ExpressibleByArgument, CaseIterable {
  /// The other boards play on; the run ends with status 1 and names the board.
  case `continue`
  /// Every board stops at once.
  case stop
}

/// `send --rig FILE --actuator NAME PATTERN …`: patterns on a rig's actuators, every player
/// started on one instant of the rig's timeline.
extension Send {
  func validateForRig() throws {
    guard connection.port == nil, !sim, server == nil else {
      throw ValidationError("--rig opens the rig's own boards: not with --port, --sim or --server")
    }
    if !channelPlays.isEmpty || rom != nil || audioOut != nil {
      throw ValidationError("--rig plays patterns on actuators: not with --channel, --rom or --audio-out")
    }
    _ = try rigPlays()
    guard rate > 0 && rate.isFinite else { throw ValidationError("--rate must be above 0") }
    guard seek >= 0 && at >= 0 && loopEnd >= 0 else { throw ValidationError("--seek, --at and --loop-end must be 0 or more") }
    guard (5...1000).contains(lookaheadMs), (lookaheadMs...1000).contains(maxLookaheadMs) else {
      throw ValidationError("--lookahead-ms must be 5–1000 and --max-lookahead-ms from it to 1000")
    }
    if let preset, HapticPresets.pattern(preset) == nil { throw ValidationError("unknown preset '\(preset)'") }
  }

  /// The `--actuator` plays: names with FILE or --preset, else NAME PATTERN pairs.
  func rigPlays() throws -> [(names: [String], file: String?)] {
    if file != nil || preset != nil {
      guard !actuatorPlays.isEmpty else { throw ValidationError("--rig needs --actuator NAME (an actuator or a group)") }
      return [(actuatorPlays, file)]
    }
    guard !actuatorPlays.isEmpty, actuatorPlays.count % 2 == 0 else {
      throw ValidationError("--actuator takes an actuator (or group) and a pattern: --actuator chest tap.ahap (or give FILE or --preset and names)")
    }
    return stride(from: 0, to: actuatorPlays.count, by: 2).map { ([actuatorPlays[$0]], actuatorPlays[$0 + 1]) }
  }

  func runOnRig(_ path: String) throws {
    let file = try RigOptions.load(path, boards: boardOptions)
    var patterns: [(names: [String], pattern: HapticPattern, source: String)] = []
    for play in try rigPlays() {
      if let path = play.file {
        patterns.append((play.names, try PatternLoading.load(path, reading: reading).pattern, path))
      } else if let preset, let pattern = HapticPresets.pattern(preset, intensity: intensity) {
        patterns.append((play.names, pattern, preset))
      }
    }
    for play in patterns {
      do { _ = try file.actuators(named: play.names) } catch { throw CLIError(error.description) }
    }
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = lookaheadMs / 1000
    configuration.maximumLookahead = maxLookaheadMs / 1000
    let rig = try RigOptions.open(file, boards: boardOptions, configuration: configuration)
    let session = RigSendSession(rig: rig, options: self)
    let status = session.run(patterns)
    if status != 0 { throw ExitCode(status) }
  }
}
