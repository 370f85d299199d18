import HapticLocks

/// Where a player is in its pattern now: what a display draws as a playhead (the board
/// server streams it, issue 28).
public struct PlayerPosition: Sendable, Hashable {
  /// What the player is doing.
  public enum State: String, Sendable, Hashable, Codable {
    /// Not started (or stopped before its first frame).
    case idle
    /// Playing: ``PlayerPosition/offset`` runs at ``PlayerPosition/rate``.
    case playing
    /// Paused where ``PlayerPosition/offset`` says.
    case paused
    /// Played to its end, or stopped.
    case finished
  }

  /// What the player is doing now.
  public var state: State
  /// Pattern seconds now (the board's current time, not the render's lookahead).
  public var offset: Double
  /// Pattern seconds per second while playing.
  public var rate: Double

  /// A position.
  public init(state: State, offset: Double, rate: Double) {
    self.state = state
    self.offset = offset
    self.rate = rate
  }
}

extension HapticEngine {
  /// Player `id`'s position at the board's current time, nil while the engine is not
  /// streaming (stopped, or before the first clock sync) or for an unknown player.
  ///
  /// Read at the scheduler's head (the first frame not yet sent), so an action just asked for
  /// (a start, a pause) shows at once; a playing track's offset is moved back (or on) by the
  /// frames between the head and the board's current frame, at its rate.
  func position(player id: Int) -> PlayerPosition? {
    guard let seconds = engineSeconds(atHost: link.hostNow) else { return nil }
    let now = Int((seconds / framePeriod).rounded(.down))
    // Into the current frame: a playing track is that much further on (a rig steers boards by
    // it: a whole frame's step in the reading would read as a millisecond of error).
    let within = seconds - Double(now) * framePeriod
    return state.withLock { state -> PlayerPosition? in
      guard let scheduler = state.scheduler, let head = scheduler.head.tracks.first(where: { $0.id == id }) else {
        return nil
      }
      // A track the head has already played to its end may still be playing on the board: the
      // base (a few frames ahead of the board) tells.
      if head.state == .finished, let base = scheduler.base.tracks.first(where: { $0.id == id }), base.state == .playing {
        return Self.position(of: base, at: scheduler.base.frame, now: now, within: within, framePeriod: framePeriod)
      }
      return Self.position(of: head, at: scheduler.head.frame, now: now, within: within, framePeriod: framePeriod)
    }
  }

  /// Where `track`, as it is at `frame`, is `within` seconds into board frame `now`.
  private static func position(of track: PlayerTrack, at frame: Int, now: Int, within: Double, framePeriod: Double) -> PlayerPosition {
    let rate = track.rate
    switch track.state {
    case .idle: return PlayerPosition(state: .idle, offset: 0, rate: rate)
    case .paused: return PlayerPosition(state: .paused, offset: track.patternTime, rate: rate)
    case .finished: return PlayerPosition(state: .finished, offset: track.patternTime, rate: rate)
    case .playing:
      let ahead = (Double(frame - now) * framePeriod - within) * rate
      let offset = min(max(track.patternTime - ahead, 0), max(track.loopPoint, 0))
      return PlayerPosition(state: .playing, offset: offset, rate: rate)
    }
  }
}

extension HapticPatternPlayer {
  /// Where this player is in its pattern now, nil while the engine is not streaming.
  public var position: PlayerPosition? { engine.position(player: id) }
}
