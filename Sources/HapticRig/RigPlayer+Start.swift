import HapticEngine
import HapticLocks

/// Starting players on one instant.
///
/// A board moves its frame grid only while nothing is pending on it, so the grids go first,
/// then the rates (`+Steering`: pending actions), then the starts — all at the very instant the
/// grids were moved to. Started one player after another, each asking for the boards' common
/// start again, a player started later by the time the first took (its own boards' earliest
/// start had passed the instant) lay a fraction of a frame off every grid, and boards rounded it
/// to frames a whole frame apart: a board behind ser2net played 1–2 ms before or after the
/// others in 1 run of 6 of `RigCommandTests`. Should a board's earliest start pass the instant
/// while the grids move, they move again to the later one.
extension RigPlayer {
  /// Times the frame grids are moved to a later instant, at most, when a board's earliest start
  /// passed the one they were moved to.
  static let alignmentRounds = 3

  /// Starts `players` on one instant of rig time — `time`, or the earliest every board of every
  /// player can make when that is later (0: as soon as they can) — each `offset` seconds after
  /// it (a timeline's cues); returns the instant.
  ///
  /// - Throws: `player` when the players belong to different rigs (they share no timeline), or
  ///   as a single player's start does.
  @discardableResult
  public static func start(_ players: [(player: RigPlayer, offset: Double)], atTime time: Double = 0) throws(RigError) -> Double {
    guard let rig = players.first?.player.rig else { return time }
    guard players.allSatisfy({ $0.player.rig === rig }) else {
      throw RigError(.player, "players of different rigs cannot start on one instant (each rig has its own timeline)")
    }
    for (player, _) in players {
      player.state.withLock {
        $0.remaining = $0.parts.count
        $0.firstError = nil
      }
    }
    let boards = Array(Set(players.flatMap { $0.player.presentParts.map(\.board) })).sorted()
    var instant = max(time, try rig.commonStart(boards))
    for _ in 0..<alignmentRounds {
      for board in boards { rig.members[board].engine.alignFrames(atHost: rig.linkHostTime(board, atRigTime: instant)) }
      // The margin is the starts' own time to go out; the grids took some of it.
      if try rig.latestEarliest(boards) <= instant { break }
      instant = try rig.commonStart(boards)
    }
    for (player, _) in players { player.steerAll() }
    for (player, offset) in players {
      let at = try player.apply(exactly: instant + offset) { player, t throws(HapticEngineError) in try player.start(atTime: t) }
      player.state.withLock {
        $0.startedAt = at
        $0.pausedAt = nil
      }
    }
    return instant
  }

  /// The parts on boards that are not lost.
  var presentParts: [Part] { state.withLock { $0.parts }.filter { rig.members[$0.board].lost == nil } }
}
