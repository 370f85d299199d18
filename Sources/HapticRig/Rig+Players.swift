public import HapticCore
import HapticEngine

extension Rig {
  /// A player of `pattern` on the actuators and groups `names` address: one player per board
  /// they are on, on those channels, controlled together on the rig's timeline. A lost board
  /// gets its part when it rejoins.
  ///
  /// - Throws: ``RigError`` `actuator` for a name that is neither an actuator nor a group,
  ///   `player` when a board refuses the pattern.
  public func makePlayer(with pattern: HapticPattern, actuators names: [String]) throws(RigError) -> RigPlayer {
    let chosen: [RigFile.Actuator]
    do {
      chosen = try file.actuators(named: names)
    } catch {
      throw RigError(.actuator, error.problems.first?.message ?? error.description)
    }
    var channels: [Int: [Int]] = [:]
    var parts: [RigPlayer.Part] = []
    for (index, member) in members.enumerated() {
      let used = chosen.filter { $0.board == member.entry.name }.map(\.channel)
      guard !used.isEmpty else { continue }
      channels[index] = used
      guard member.lost == nil else { continue }
      do {
        parts.append(.init(board: index, player: try member.engine.makeAdvancedPlayer(with: pattern, channels: used)))
      } catch {
        throw RigError(.player, board: member.entry.name, error.message)
      }
    }
    let player = RigPlayer(rig: self, pattern: pattern, actuators: chosen, channels: channels, parts: parts)
    register(player)
    return player
  }

  /// The earliest rig time at which every board in `boards` (indices into ``members``) that is
  /// not lost can start a player (the latest of their earliest starts), plus
  /// ``commonLeadMargin`` per board for the time the starts take to send one after another.
  public func commonStart(_ boards: [Int]) throws(RigError) -> Double {
    let present = boards.filter { members[$0].lost == nil }
    return try latestEarliest(present) + Self.commonLeadMargin * Double(max(present.count, 1))
  }

  /// The latest of the earliest starts of `boards` (rig time; now, at the least), with no margin.
  func latestEarliest(_ boards: [Int]) throws(RigError) -> Double {
    var latest = currentTime
    for board in boards where members[board].lost == nil {
      guard let earliest = members[board].engine.earliestStartTime, let at = rigTime(board, atBoardTime: earliest) else {
        throw RigError(.board, board: members[board].entry.name, "no clock sync with the board (is it running?)")
      }
      latest = max(latest, at)
    }
    return latest
  }

  /// Rig seconds added per board to a common instant: sending one board's start takes well
  /// under this (a batch per channel written to its port).
  static let commonLeadMargin = 0.002
}
