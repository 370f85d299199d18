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
}
