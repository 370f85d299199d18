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
    if timeline != nil {
      guard actuatorPlays.isEmpty, file == nil, preset == nil else {
        throw ValidationError("--timeline names its own patterns and actuators: not with FILE, --preset or --actuator")
      }
    } else {
      _ = try rigPlays()
    }
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
    let plays = try timeline.map { try timelinePlays($0, rig: file) } ?? actuatorPlaysOnRig(file)
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = lookaheadMs / 1000
    configuration.maximumLookahead = maxLookaheadMs / 1000
    let rig = try RigOptions.open(file, boards: boardOptions, configuration: configuration)
    let session = RigSendSession(rig: rig, options: self)
    let status = session.run(plays)
    if status != 0 { throw ExitCode(status) }
  }

  /// The `--actuator` plays, all at the start.
  private func actuatorPlaysOnRig(_ file: RigFile) throws -> [RigPlay] {
    var plays: [RigPlay] = []
    for play in try rigPlays() {
      do { _ = try file.actuators(named: play.names) } catch { throw CLIError(error.description) }
      if let path = play.file {
        plays.append(RigPlay(names: play.names, pattern: try PatternLoading.load(path, reading: reading).pattern, source: path))
      } else if let preset, let pattern = HapticPresets.pattern(preset, intensity: intensity) {
        plays.append(RigPlay(names: play.names, pattern: pattern, source: preset))
      }
    }
    return plays
  }

  /// A timeline's plays: each cue's pattern on each of its actuators at its time and intensity.
  private func timelinePlays(_ path: String, rig: RigFile) throws -> [RigPlay] {
    let timeline: RigTimeline
    do {
      timeline = try RigTimeline.load(path, rig: rig, knownPreset: { HapticPresets.pattern($0) != nil })
    } catch {
      throw CLIError(error.description)
    }
    var patterns: [String: HapticPattern] = [:]
    for (name, source) in timeline.patterns {
      switch source {
      case .preset(let preset): patterns[name] = HapticPresets.pattern(preset)
      case .file(let file):
        do {
          patterns[name] = try PatternLoading.load(file, reading: reading).pattern
        } catch {
          throw CLIError("\(path): patterns.\(name): \(error)")
        }
      }
    }
    return timeline.plays.compactMap { play in
      patterns[play.pattern].map {
        RigPlay(names: [play.actuator], pattern: $0.scalingIntensity(by: play.intensity), source: play.pattern, at: play.at)
      }
    }
  }
}

/// One pattern of a `send --rig` run on actuators, `at` seconds after the run's start instant.
struct RigPlay {
  var names: [String]
  var pattern: HapticPattern
  var source: String
  var at = 0.0
}
