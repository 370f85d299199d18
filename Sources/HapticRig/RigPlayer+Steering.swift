import Foundation
import HapticCore
import HapticEngine
import HapticLocks

/// Playing on the rig's clock, not each board's.
///
/// An engine plays a pattern in its board's seconds, and boards' clocks run apart (two Unos'
/// ceramic resonators, ±0.5 %, up to 10 ms per second of pattern). So each board's player runs at
/// the player's rate divided by its board's clock rate against the host's (the slope of its clock
/// fit), set at every start and whenever the rate is set. A fresh link has no slope yet (its fit
/// needs a few seconds of round trips: the rate is then 1), and the rate is not followed while a
/// player plays: a long pattern or a loop drifts at what is left (docs/rigs.md has the figures).
extension RigPlayer {
  /// Board seconds per rig second on board `index` now (its clock fit's slope), 1 before sync.
  func clockRate(_ index: Int) -> Double {
    let now = rig.currentTime
    guard let here = rig.boardTime(index, atRigTime: now), let later = rig.boardTime(index, atRigTime: now + 1), later > here else {
      return 1
    }
    return later - here
  }

  /// Sets every present board's player to the player's rate on the rig's clock.
  func steerAll() {
    let (parts, rate) = state.withLock { ($0.parts, $0.rate) }
    for part in parts where rig.members[part.board].lost == nil { steer(part, rate: rate) }
  }

  /// Sets a board's player to `rate` on the rig's clock (its board's clock slope now).
  func steer(_ part: Part, rate: Double) {
    part.player.playbackRate = rate / clockRate(part.board)
  }

  /// One look of the steering: a playing player's boards whose clock slope moved since their
  /// rate was set get it again (a rate change keeps the pattern time exactly: `PlayerTrack`).
  func followSlopes() {
    let (parts, rate, started) = state.withLock { ($0.parts, $0.rate, $0.pausedAt == nil ? $0.startedAt : nil) }
    // Not before it has played a while: its rate was set at the start, and the engine reads a
    // track as playing from when the render passed its start, a lookahead before the board does.
    guard let started, rig.currentTime > started + Rig.steeringPeriod else { return }
    let at = rig.currentTime + Rig.steeringLead
    for part in parts where rig.members[part.board].lost == nil && part.player.position?.state == .playing {
      // Only while it plays: a pending change would keep its board's frame grid where it is for
      // the next start (`alignFrames` waits for nothing pending).
      let wanted = rate / clockRate(part.board)
      guard abs(wanted / part.player.playbackRate - 1) > Rig.steeringThreshold, let time = rig.boardTime(part.board, atRigTime: at)
      else { continue }
      try? part.player.setPlaybackRate(wanted, atTime: time)
    }
  }
}

extension Rig {
  /// Seconds between looks of the steering.
  static let steeringPeriod = 1.0
  /// Rig seconds ahead that a steering rate change takes effect: past what the engine has sent
  /// on its default 80 ms lookahead, so the change rides on the next refill instead of
  /// re-rendering what is queued (16 boards' changes were 4 % of the rig's CPU time), and has
  /// time to reach the board (as soon as possible, one did not always: a late batch now and then
  /// while the clock fit was young). A second's steering loses nothing by it.
  static let steeringLead = 0.15
  /// Relative change of a board's clock slope that re-sets its players' rates (2 ppm: 20 µs of
  /// pattern in 10 s).
  static let steeringThreshold = 2e-6

  /// Starts the steering thread: while the rig is open, every ``steeringPeriod`` each playing
  /// player follows its boards' clock slopes (`RigPlayer+Steering`).
  func startSteering() {
    let thread = Thread { [weak self] in
      while true {
        Thread.sleep(forTimeInterval: Rig.steeringPeriod)
        guard let rig = self, !rig.rejoining.withLock({ $0.closed }) else { return }
        for player in rig.rejoining.withLock({ $0.players.compactMap(\.player) }) { player.followSlopes() }
      }
    }
    thread.name = "rig steering"
    thread.start()
  }
}
