import HapticCore
import HapticEngine
import HapticLocks

extension RigPlayer {
  /// Board `index` rejoined the rig: its part is made again on the board's new engine and, when
  /// the player is playing, started on the next instant the board can make at the pattern time
  /// the other boards are at (looping where they loop), so it plays on in step with them. A
  /// paused player's part waits idle (its resume does not reach it: start the player again).
  func rejoin(board index: Int) {
    guard let channels = channels[index] else { return }
    let engine = rig.members[index].engine
    let settings = state.withLock { ($0.loop, $0.loopEnd, $0.rate, $0.pausedAt == nil ? $0.startedAt : nil) }
    guard let player = try? engine.makeAdvancedPlayer(with: pattern, channels: channels) else { return }
    player.loopEnabled = settings.0
    player.loopEnd = settings.1
    let part = Part(board: index, player: player)
    let resumes = state.withLock { state -> Bool in
      state.parts.removeAll { $0.board == index }
      state.parts.append(part)
      guard state.startedAt != nil, state.pausedAt == nil else { return false }
      state.remaining += 1
      return true
    }
    watch(part)
    guard resumes, let started = settings.3, let at = try? rig.commonStart([index]) else {
      steer(part, rate: settings.2)
      return
    }
    engine.alignFrames(atHost: rig.linkHostTime(index, atRigTime: at))
    steer(part, rate: settings.2)
    var offset = max(at - started, 0) * settings.2
    let length = settings.1 > 0 ? settings.1 : pattern.duration
    if settings.0 && length > 0 {
      offset = offset.truncatingRemainder(dividingBy: length)
    } else if offset >= pattern.duration {
      // It would be over already: nothing to play, and nothing to wait for.
      state.withLock { $0.remaining -= 1 }
      return
    }
    guard let boardTime = rig.boardTime(index, atRigTime: at) else { return }
    do {
      try player.start(atTime: boardTime)
      if offset > 0 { try player.seek(toOffset: offset, atTime: boardTime) }
    } catch {
      state.withLock { $0.remaining -= 1 }
    }
  }
}
