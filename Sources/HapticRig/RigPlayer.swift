public import HapticCore
import HapticEngine
import HapticLocks

/// Players of one pattern on several boards, started, stopped and changed on one instant of
/// rig time: the time asked for, or the earliest instant every board can make when that is later
/// (0: as soon as they can). Lost boards are left out; a board that rejoins gets its part back,
/// started where the others are.
public final class RigPlayer: Sendable {
  struct Part: Sendable {
    var board: Int
    var player: HapticAdvancedPatternPlayer
  }

  /// The rig.
  public let rig: Rig
  /// The pattern.
  public let pattern: HapticPattern
  /// The actuators it plays on.
  public let actuators: [RigFile.Actuator]
  /// The channels it plays on, by board.
  let channels: [Int: [Int]]
  let state: Locked<State>

  struct State: Sendable {
    var parts: [Part]
    /// Players not finished since the last start.
    var remaining = 0
    var handler: (@Sendable ((any Error)?) -> Void)?
    var firstError: RigError?
    /// The rig time the pattern would have started at to be where it is, while it plays or is
    /// paused (nil before a start and after a stop or its end): a pause and a seek move it.
    var startedAt: Double?
    /// The rig time of the pause, while paused.
    var pausedAt: Double?
    var loop = false
    var loopEnd = 0.0
    var rate = 1.0
  }

  init(rig: Rig, pattern: HapticPattern, actuators: [RigFile.Actuator], channels: [Int: [Int]], parts: [Part]) {
    self.rig = rig
    self.pattern = pattern
    self.actuators = actuators
    self.channels = channels
    state = Locked(State(parts: parts))
    for part in parts { watch(part) }
  }

  /// The boards it plays on (indices into ``Rig/members``), lost ones included.
  public var boards: [Int] { channels.keys.sorted() }

  /// Called once every board's player has finished (a lost board's with its error): with the
  /// first error, if any (the other boards played on).
  public var completionHandler: (@Sendable ((any Error)?) -> Void)? {
    get { state.withLock { $0.handler } }
    set { state.withLock { $0.handler = newValue } }
  }

  /// Starts on every board at rig time `time`, or at the earliest instant every board can make
  /// when that is later (0: as soon as they can); returns the instant used. A quiet board first
  /// moves its frame grid onto the instant: every board then starts exactly there, not each on
  /// its nearest frame (up to half a frame either way). Several players that must start
  /// together start through ``start(_:atTime:)``.
  @discardableResult
  public func start(atTime time: Double = 0) throws(RigError) -> Double {
    try Self.start([(self, 0)], atTime: time)
  }

  /// Stops on every board at rig time `time` (0: the earliest common instant).
  public func stop(atTime time: Double = 0) throws(RigError) {
    state.withLock {
      $0.startedAt = nil
      $0.pausedAt = nil
    }
    try apply(at: time) { player, t throws(HapticEngineError) in try player.stop(atTime: t) }
  }

  /// Pauses on every board.
  public func pause(atTime time: Double = 0) throws(RigError) {
    let at = try apply(at: time) { player, t throws(HapticEngineError) in try player.pause(atTime: t) }
    state.withLock { if $0.pausedAt == nil { $0.pausedAt = at } }
  }

  /// Resumes on every board.
  public func resume(atTime time: Double = 0) throws(RigError) {
    let at = try apply(at: time) { player, t throws(HapticEngineError) in try player.resume(atTime: t) }
    state.withLock { state in
      if let paused = state.pausedAt { state.startedAt = state.startedAt.map { $0 + (at - paused) } }
      state.pausedAt = nil
    }
  }

  /// Moves to pattern time `offset` on every board at rig time `time`.
  public func seek(toOffset offset: Double, atTime time: Double = 0) throws(RigError) {
    let at = try apply(at: time) { player, t throws(HapticEngineError) in try player.seek(toOffset: offset, atTime: t) }
    state.withLock { state in state.startedAt = state.startedAt.map { _ in at - offset / state.rate } }
  }

  /// Sends dynamic parameters to every board's player, taking effect at one instant.
  public func sendParameters(_ parameters: [DynamicParameter], atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.sendParameters(parameters, atTime: t) }
  }

  /// Every board's player loops (or not).
  public var loopEnabled: Bool {
    get { state.withLock { $0.loop } }
    set { set { $0.loop = newValue } apply: { $0.loopEnabled = newValue } }
  }

  /// The loop's end in pattern seconds (0: the pattern's end).
  public var loopEnd: Double {
    get { state.withLock { $0.loopEnd } }
    set { set { $0.loopEnd = newValue } apply: { $0.loopEnd = newValue } }
  }

  /// The playback rate, on the rig's clock: each board's player runs at it divided by its
  /// board's clock rate (`+Steering`). Set before a start, it waits for the start: a rate
  /// change is a pending action on each board, and a board with one pending does not move its
  /// frame grid onto the start's instant (`send --rig` set it as it made its players, and the
  /// board made last started on its own grid, up to half a frame from the others).
  public var playbackRate: Double {
    get { state.withLock { $0.rate } }
    set {
      guard newValue > 0 && newValue.isFinite else { return }
      let started = state.withLock { state -> Bool in
        state.rate = newValue
        return state.startedAt != nil
      }
      if started { steerAll() }
    }
  }

  /// Stops every board's player now, dropping what was scheduled.
  public func cancel() {
    let parts = state.withLock { state in
      state.startedAt = nil
      state.pausedAt = nil
      return state.parts
    }
    for part in parts { try? part.player.cancel() }
  }

  private func set(_ change: (inout State) -> Void, apply: (HapticAdvancedPatternPlayer) -> Void) {
    let parts = state.withLock { state in
      change(&state)
      return state.parts
    }
    for part in parts { apply(part.player) }
  }

  /// Reports a part's completion; the handler runs once all have finished.
  func watch(_ part: Part) {
    let name = rig.members[part.board].entry.name
    part.player.completionHandler = { [state] error in
      let call = state.withLock { state -> (handler: (@Sendable ((any Error)?) -> Void)?, error: RigError?)? in
        if let error, state.firstError == nil { state.firstError = RigError(.player, board: name, "\(error)") }
        state.remaining -= 1
        guard state.remaining == 0 else { return nil }
        state.startedAt = nil
        state.pausedAt = nil
        return (state.handler, state.firstError)
      }
      if let call { call.handler?(call.error) }
    }
  }

  /// Runs `action` on each present board's player at rig time `time` (not sooner than every
  /// board can make) mapped onto that board's clock; returns the rig time used.
  @discardableResult
  private func apply(
    at time: Double, _ action: (HapticAdvancedPatternPlayer, Double) throws(HapticEngineError) -> Void
  ) throws(RigError) -> Double {
    let boards = presentParts.map(\.board)
    // Never sooner than every board can make it: a board given a sooner instant would move its
    // part later on its own, out of step with the others.
    return try apply(exactly: max(time, try rig.commonStart(boards)), action)
  }

  /// Runs `action` on each present board's player at rig time `at` mapped onto that board's
  /// clock; returns `at`.
  func apply(
    exactly at: Double, _ action: (HapticAdvancedPatternPlayer, Double) throws(HapticEngineError) -> Void
  ) throws(RigError) -> Double {
    for part in presentParts {
      let member = rig.members[part.board]
      guard let boardTime = rig.boardTime(part.board, atRigTime: at) else {
        throw RigError(.board, board: member.entry.name, "no clock sync with the board (is it running?)")
      }
      do {
        try action(part.player, boardTime)
      } catch {
        throw RigError(.player, board: member.entry.name, error.message)
      }
    }
    return at
  }
}
