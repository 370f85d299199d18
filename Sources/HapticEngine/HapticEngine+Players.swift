import Foundation
import HapticAHAP
import HapticLocks
public import HapticCore
import HapticRenderer

extension HapticEngine {
  /// A player for `pattern`, on every channel of the board or on `channels` only (the others
  /// stay silent for it; docs/semantics.md §13.6).
  ///
  /// - Throws: `invalidPatternData` when the pattern cannot be rendered for this board,
  ///   `invalidEngineParameter` for an empty channel list or a channel the board does not have.
  public func makePlayer(with pattern: HapticPattern, channels: [Int]? = nil) throws(HapticEngineError) -> HapticPatternPlayer {
    HapticPatternPlayer(engine: self, id: try register(pattern, channels: channels), pattern: pattern)
  }

  /// An advanced player (pause, resume, seek, loop, rate) for `pattern`, on every channel or on
  /// `channels` only.
  public func makeAdvancedPlayer(with pattern: HapticPattern, channels: [Int]? = nil) throws(HapticEngineError)
    -> HapticAdvancedPatternPlayer
  {
    HapticAdvancedPatternPlayer(engine: self, id: try register(pattern, channels: channels), pattern: pattern)
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

  private func register(_ pattern: HapticPattern, channels requested: [Int]?) throws(HapticEngineError) -> Int {
    if let problem = pattern.problem { throw HapticEngineError(problem.code, problem.message) }
    let channels = try Self.channels(requested, on: profile)
    do {
      for channel in channels { _ = try PatternVoices(pattern: pattern, profile: profile, channel: channel) }
    } catch {
      throw HapticEngineError(.invalidPatternData, error.description)
    }
    let track = { (id: Int) in PlayerTrack(id: id, pattern: pattern, profile: self.profile, channels: channels) }
    return state.withLock { state in
      let id = state.nextPlayerID
      state.nextPlayerID += 1
      state.players[id] = EnginePlayer(pattern: pattern, channels: channels)
      state.scheduler?.add(track(id))
      return id
    }
  }

  /// The channels a player plays on: all of `profile`'s, or `requested` (sorted, each once).
  static func channels(_ requested: [Int]?, on profile: BoardProfile) throws(HapticEngineError) -> [Int] {
    guard let requested else { return Array(profile.channels.indices) }
    guard !requested.isEmpty else {
      throw HapticEngineError(.invalidEngineParameter, "a player needs at least one channel")
    }
    if let missing = requested.first(where: { !profile.channels.indices.contains($0) }) {
      throw HapticEngineError(
        .invalidEngineParameter,
        "\(profile.id) has no channel \(missing) (it has \(profile.channels.count): 0…\(profile.channels.count - 1))")
    }
    return Array(Set(requested)).sorted()
  }

  /// The earliest engine time a player started now can start at, without being moved later:
  /// past the guard, what the host already wrote and the link's start lead. A rig starts its
  /// boards' players at one instant, the latest of theirs (HapticRig). Nil before clock sync or
  /// while the engine is stopped.
  public var earliestStartTime: Double? {
    let lead = startLead(for: .start)
    return state.withLock { state -> Double? in
      guard state.running, let scheduler = state.scheduler, let (now, least) = changeClock() else { return nil }
      return Double(max(scheduler.earliest(now: now, least: least), now + lead)) * framePeriod
    }
  }

  /// The longest a player action may be scheduled ahead, seconds (a day, as a render).
  static let maximumLead = 86_400.0

  /// Schedules a player action at engine time `time`.
  ///
  /// - Throws: `invalidTime` for a time that is not finite or more than a day ahead (it could
  ///   never be reached, and would not fit a frame number).
  func perform(_ action: TrackAction, player id: Int, at time: Double) throws(HapticEngineError) {
    guard time.isFinite, time <= currentTime + Self.maximumLead else {
      throw HapticEngineError(.invalidTime, "player \(id): time \(time) is not a finite engine time within a day")
    }
    if case .start = action, !isRunning, isAutoShutdownEnabled { try start() }
    // A time asked for explicitly may have been placed by ``earliestStartTime`` a few
    // milliseconds before (a rig's common instant, its other boards started first): kept while
    // it leaves the link three quarters of the lead to resend a lost first batch, rather than
    // moved later on its own, out of step with the rig (1 run in 6 of `RigCommandTests` put a
    // board behind ser2net 1–2 frames after the others, its 150 ms lead short by 2 ms).
    let linkLead = time > 0 ? startLead(for: action) * 3 / 4 : startLead(for: action)
    let (wasQuiet, marks) = try computeAndSend {
      () throws(HapticEngineError) -> (batches: [StreamScheduler.Batch], result: (Bool, [(id: Int, mark: AudioMark)])) in
      try state.withLock { state throws(HapticEngineError) in
        guard let player = state.players[id], !player.invalid else {
          throw HapticEngineError(.invalidPatternPlayer, "player \(id) is no longer valid (the board was reset or lost)")
        }
        guard state.running, var scheduler = state.scheduler.take() else { throw .notRunning("player \(id)") }
        defer { state.scheduler = scheduler }
        guard let (now, least) = changeClock() else {
          throw HapticEngineError(.engineNotRunning, "no clock sync with the board")
        }
        switch action {
        case .start: state.players[id]?.reported = false
        case .rate(let rate): state.players[id]?.rate = rate
        case .mute(let flag): state.players[id]?.muted = flag
        default: break
        }
        // A start with audio waits out the audio output's queue, so sound and drive begin
        // together; on a lossy link a start waits out a recovery, so its onset is not cut. An
        // action never takes effect before one the player was given earlier for the same time or
        // before (a seek right after a start, whose link lead put it later, would find the player
        // idle and be lost).
        let asked = frame(at: time, now: now)
        let pending = player.pending.filter { $0.at >= now }
        let after = pending.filter { $0.asked <= asked }.map(\.at).max() ?? now
        let at = max(asked, now + max(audioLead(for: action, player: player, audio: state.audio), linkLead), after)
        // From quiet the loop sleeps the idle period, longer than what this change queues: wake
        // it to work out its next pass (while something plays its deadline still holds: a
        // replace re-renders up to the same head).
        let wasQuiet = scheduler.isQuiet
        let (batches, placed) = fitted(&scheduler, least: least) { scheduler, least in
          let (batches, frame) = scheduler.schedule(action, track: id, at: max(at, least), now: now, least: least)
          return (batches, frame)
        }
        state.players[id]?.pending = pending + [(asked, placed)]
        let marks = scheduler.takeAudioMarks()
        return (batches, (wasQuiet, configuration.audioOutput == nil ? [] : marks))
      }
    }
    route(marks)
    if wasQuiet { wakeLoop() }
  }

  /// Drops a player's pending actions and stops it now.
  func cancel(player id: Int) throws(HapticEngineError) {
    computeAndSend {
      state.withLock { state -> (batches: [StreamScheduler.Batch], result: Void) in
        state.players[id]?.pending = []
        guard state.running, let (now, least) = changeClock() else { return ([], ()) }
        return (fittedModify(&state.scheduler, now: now, least: least) { $0.clearActions(track: id) }, ())
      }
    }
    try perform(.stop, player: id, at: 0)
  }

  /// Changes a player's loop settings (either or both; the engine keeps them, the player
  /// object has none of its own, so two threads setting one each lose neither).
  func setLoop(player id: Int, enabled: Bool? = nil, end: Double? = nil) {
    let marks = computeAndSend {
      state.withLock { state -> (batches: [StreamScheduler.Batch], result: [(id: Int, mark: AudioMark)]) in
        guard state.players[id] != nil else { return ([], []) }
        var loop = state.players[id]?.loop ?? (false, 0)
        if let enabled { loop.enabled = enabled }
        if let end { loop.end = end }
        state.players[id]?.loop = loop
        guard state.running, let (now, least) = changeClock() else { return ([], []) }
        let batches =
          fittedModify(&state.scheduler, now: now, least: least) { $0.setLoop(track: id, enabled: loop.enabled, end: loop.end) }
        let marks = state.scheduler?.takeAudioMarks() ?? []
        return (batches, configuration.audioOutput == nil ? [] : marks)
      }
    }
    route(marks)
  }

  /// A player's loop settings (off, wrapping at the end, until set).
  func loop(player id: Int) -> (enabled: Bool, end: Double) {
    state.withLock { $0.players[id]?.loop ?? (false, 0) }
  }

  /// A player's playback rate: kept whether or not the engine runs, applied now if it does.
  func setRate(player id: Int, _ rate: Double, at time: Double = 0) throws(HapticEngineError) {
    state.withLock { $0.players[id]?.rate = rate }
    try perform(.rate(rate), player: id, at: time)
  }

  /// A player's playback rate (1 until set).
  func rate(player id: Int) -> Double {
    state.withLock { $0.players[id]?.rate ?? 1 }
  }

  func startTime(player id: Int) -> Double? {
    state.withLock { state in
      guard let scheduler = state.scheduler else { return nil }
      let track = scheduler.head.tracks.first { $0.id == id }
      let pending = track?.actions.last { if case .start = $0.action { return true } else { return false } }?.frame
      return (pending ?? track?.startedAt).map { Double($0) * framePeriod }
    }
  }

  /// The player object `id` was deallocated: what it started plays on (its completion handler
  /// still runs), then the engine forgets it (``forgetReleasedPlayers()``). Takes only
  /// `releasedIDs`' lock, so it is safe from any thread, the engine's state locked or not.
  func release(player id: Int) {
    releasedIDs.withLock { $0.append(id) }
  }

  /// Forgets released players whose tracks are done (``State/forgetReleasedPlayers(_:)``).
  /// What they held (their handlers) is dropped after the state is unlocked: a handler's
  /// captures may reach back into the engine when they go.
  func forgetReleasedPlayers() {
    let newlyReleased = releasedIDs.withLock { ids -> [Int] in
      guard !ids.isEmpty else { return [] }
      defer { ids.removeAll() }
      return ids
    }
    let forgotten = state.withLock { $0.forgetReleasedPlayers(newlyReleased) }
    withExtendedLifetime(forgotten) {}
  }

  func isMuted(player id: Int) -> Bool {
    state.withLock { $0.scheduler?.tracks.first { $0.id == id }?.muted ?? false }
  }

  func completion(player id: Int) -> (@Sendable ((any Error)?) -> Void)? {
    state.withLock { $0.players[id]?.completion }
  }

  /// Sets a player's completion handler; the one it replaces goes after the state is unlocked.
  func setCompletion(player id: Int, _ handler: (@Sendable ((any Error)?) -> Void)?) {
    let replaced = state.withLock { state -> (@Sendable ((any Error)?) -> Void)? in
      defer { state.players[id]?.completion = handler }
      return state.players[id]?.completion
    }
    withExtendedLifetime(replaced) {}
  }
}
