import Foundation
import HapticAHAP
public import HapticCore
import HapticRenderer

extension HapticEngine {
  /// A player for `pattern`.
  ///
  /// - Throws: `invalidPatternData` when the pattern cannot be rendered for this board.
  public func makePlayer(with pattern: HapticPattern) throws(HapticEngineError) -> HapticPatternPlayer {
    HapticPatternPlayer(engine: self, id: try register(pattern), pattern: pattern)
  }

  /// An advanced player (pause, resume, seek, loop, rate) for `pattern`.
  public func makeAdvancedPlayer(with pattern: HapticPattern) throws(HapticEngineError) -> HapticAdvancedPatternPlayer {
    HapticAdvancedPatternPlayer(engine: self, id: try register(pattern), pattern: pattern)
  }

  /// Plays an AHAP file once, now, starting the engine if needed.
  public func playPattern(from file: String) throws(HapticEngineError) {
    let document: AHAPDocument
    do {
      document = try AHAPReader().read(contentsOf: file)
    } catch {
      throw HapticEngineError(.invalidPatternData, error.description)
    }
    if !isRunning { try start() }
    try makePlayer(with: document.pattern).start(atTime: 0)
  }

  private func register(_ pattern: HapticPattern) throws(HapticEngineError) -> Int {
    do {
      for channel in profile.channels.indices { _ = try PatternVoices(pattern: pattern, profile: profile, channel: channel) }
    } catch {
      throw HapticEngineError(.invalidPatternData, error.description)
    }
    return lock.withLock {
      let id = nextPlayerID
      nextPlayerID += 1
      players[id] = PlayerHandlers()
      patterns[id] = pattern
      scheduler?.add(PlayerTrack(id: id, pattern: pattern, profile: profile))
      return id
    }
  }

  /// Schedules a player action at engine time `time`.
  func perform(_ action: TrackAction, player id: Int, at time: Double) throws(HapticEngineError) {
    if case .start = action, !isRunning, isAutoShutdownEnabled { try start() }
    lock.lock()
    guard let handlers = players[id], !handlers.invalid else {
      lock.unlock()
      throw HapticEngineError(.invalidPatternPlayer, "player \(id) is no longer valid (the board was reset or lost)")
    }
    guard running, scheduler != nil else {
      lock.unlock()
      throw .notRunning("player \(id)")
    }
    guard let now = nowFrame() else {
      lock.unlock()
      throw HapticEngineError(.engineNotRunning, "no clock sync with the board")
    }
    switch action {
    case .start: players[id]?.reported = false
    case .rate(let rate): rates[id] = rate
    case .mute(let flag): mutes[id] = flag
    default: break
    }
    let batches = scheduler?.schedule(action, track: id, at: frame(at: time, now: now), now: now) ?? []
    lock.unlock()
    transmit(batches)
  }

  /// Drops a player's pending actions and stops it now.
  func cancel(player id: Int) throws(HapticEngineError) {
    let batches = lock.withLock { () -> [StreamScheduler.Batch] in
      guard running, let now = nowFrame() else { return [] }
      return scheduler?.modify(at: now, now: now) { $0.clearActions(track: id) } ?? []
    }
    transmit(batches)
    try perform(.stop, player: id, at: 0)
  }

  func setLoop(player id: Int, enabled: Bool, end: Double) {
    let batches = lock.withLock { () -> [StreamScheduler.Batch] in
      loops[id] = (enabled, end)
      guard running, let now = nowFrame() else { return [] }
      return scheduler?.modify(at: now, now: now) { $0.setLoop(track: id, enabled: enabled, end: end) } ?? []
    }
    transmit(batches)
  }

  func startTime(player id: Int) -> Double? {
    lock.withLock {
      guard let scheduler else { return nil }
      let track = scheduler.head.tracks.first { $0.id == id }
      let pending = track?.actions.last { if case .start = $0.action { return true } else { return false } }?.frame
      return (pending ?? track?.startedAt).map { Double($0) * framePeriod }
    }
  }

  func isMuted(player id: Int) -> Bool {
    lock.withLock { scheduler?.tracks.first { $0.id == id }?.muted ?? false }
  }

  func completion(player id: Int) -> (@Sendable ((any Error)?) -> Void)? {
    lock.withLock { players[id]?.completion }
  }

  func setCompletion(player id: Int, _ handler: (@Sendable ((any Error)?) -> Void)?) {
    lock.withLock { players[id]?.completion = handler }
  }
}
