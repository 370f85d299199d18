public import HapticCore
public import HapticEngine
import HapticLocks

extension Rig {
  /// A player of `pattern` on the actuators and groups `names` address: one player per board
  /// they are on, on those channels, controlled together on the rig's timeline.
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
    var parts: [RigPlayer.Part] = []
    for (index, member) in members.enumerated() {
      let channels = chosen.filter { $0.board == member.entry.name }.map(\.channel)
      guard !channels.isEmpty else { continue }
      do {
        parts.append(.init(board: index, player: try member.engine.makeAdvancedPlayer(with: pattern, channels: channels)))
      } catch {
        throw RigError(.player, board: member.entry.name, error.message)
      }
    }
    return RigPlayer(rig: self, actuators: chosen, parts: parts)
  }

  /// The earliest rig time at which every board in `boards` (indices into ``members``) can start a player (the latest of
  /// their earliest starts) plus ``commonLeadMargin`` per board, for the time the starts take
  /// to send one after another.
  public func commonStart(_ boards: [Int]) throws(RigError) -> Double {
    var latest = currentTime
    for board in boards {
      guard let earliest = members[board].engine.earliestStartTime, let at = rigTime(board, atBoardTime: earliest) else {
        throw RigError(.board, board: members[board].entry.name, "no clock sync with the board (is it running?)")
      }
      latest = max(latest, at)
    }
    return latest + Self.commonLeadMargin * Double(max(boards.count, 1))
  }

  /// Rig seconds added per board to a common instant: sending one board's start takes well
  /// under this (a batch per channel written to its port).
  static let commonLeadMargin = 0.002
}

/// Players of one pattern on several boards, started, stopped and changed on one instant of
/// rig time: the time asked for, or the earliest instant every board can make when that is later
/// (0: as soon as they can).
public final class RigPlayer: Sendable {
  struct Part: Sendable {
    var board: Int
    var player: HapticAdvancedPatternPlayer
  }

  /// The rig.
  public let rig: Rig
  /// The actuators it plays on.
  public let actuators: [RigFile.Actuator]
  let parts: [Part]
  private let completion = Locked(Completion())

  private struct Completion: Sendable {
    var remaining = 0
    var handler: (@Sendable ((any Error)?) -> Void)?
    var firstError: RigError?
  }

  init(rig: Rig, actuators: [RigFile.Actuator], parts: [Part]) {
    self.rig = rig
    self.actuators = actuators
    self.parts = parts
    for part in parts {
      let name = rig.members[part.board].entry.name
      part.player.completionHandler = { [completion] error in
        let call = completion.withLock { state -> (handler: (@Sendable ((any Error)?) -> Void)?, error: RigError?)? in
          if let error, state.firstError == nil { state.firstError = RigError(.player, board: name, "\(error)") }
          state.remaining -= 1
          guard state.remaining == 0 else { return nil }
          return (state.handler, state.firstError)
        }
        if let call { call.handler?(call.error) }
      }
    }
  }

  /// The boards it plays on (indices into ``Rig/members``).
  public var boards: [Int] { parts.map(\.board) }

  /// Called once every board's player has finished (a lost board's with its error): with the
  /// first error, if any (the other boards played on).
  public var completionHandler: (@Sendable ((any Error)?) -> Void)? {
    get { completion.withLock { $0.handler } }
    set { completion.withLock { $0.handler = newValue } }
  }

  /// Starts on every board at rig time `time`, or at the earliest instant every board can make
  /// when that is later (0: as soon as they can); returns the instant used.
  @discardableResult
  public func start(atTime time: Double = 0) throws(RigError) -> Double {
    completion.withLock {
      $0.remaining = parts.count
      $0.firstError = nil
    }
    return try apply(at: time, aligning: true) { player, t throws(HapticEngineError) in try player.start(atTime: t) }
  }

  /// Stops on every board at rig time `time` (0: the earliest common instant).
  public func stop(atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.stop(atTime: t) }
  }

  /// Pauses on every board.
  public func pause(atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.pause(atTime: t) }
  }

  /// Resumes on every board.
  public func resume(atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.resume(atTime: t) }
  }

  /// Moves to pattern time `offset` on every board at rig time `time`.
  public func seek(toOffset offset: Double, atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.seek(toOffset: offset, atTime: t) }
  }

  /// Sends dynamic parameters to every board's player, taking effect at one instant.
  public func sendParameters(_ parameters: [DynamicParameter], atTime time: Double = 0) throws(RigError) {
    try apply(at: time) { player, t throws(HapticEngineError) in try player.sendParameters(parameters, atTime: t) }
  }

  /// Every board's player loops (or not).
  public var loopEnabled: Bool {
    get { parts.first?.player.loopEnabled ?? false }
    set { for part in parts { part.player.loopEnabled = newValue } }
  }

  /// The loop's end in pattern seconds (0: the pattern's end).
  public var loopEnd: Double {
    get { parts.first?.player.loopEnd ?? 0 }
    set { for part in parts { part.player.loopEnd = newValue } }
  }

  /// The playback rate of every board's player.
  public var playbackRate: Double {
    get { parts.first?.player.playbackRate ?? 1 }
    set { for part in parts { part.player.playbackRate = newValue } }
  }

  /// Stops every board's player now, dropping what was scheduled.
  public func cancel() {
    for part in parts { try? part.player.cancel() }
  }

  /// The players' underlying per-board players, with their board's name (reports).
  public var boardPlayers: [(board: String, player: HapticAdvancedPatternPlayer)] {
    parts.map { (rig.members[$0.board].entry.name, $0.player) }
  }

  /// Runs `action` on each board's player at rig time `time` (0: the common earliest) mapped
  /// onto that board's clock; returns the rig time used.
  @discardableResult
  private func apply(
    at time: Double, aligning: Bool = false, _ action: (HapticAdvancedPatternPlayer, Double) throws(HapticEngineError) -> Void
  ) throws(RigError) -> Double {
    // Never sooner than every board can make it: a board given a sooner instant would move its
    // part later on its own, out of step with the others.
    let at = max(time, try rig.commonStart(boards))
    for part in parts {
      let name = rig.members[part.board].entry.name
      // A start on a quiet board moves its frame grid onto the instant: every board then starts
      // exactly there, not each on its nearest frame (up to half a frame either way).
      if aligning { rig.members[part.board].engine.alignFrames(atHost: rig.linkHostTime(part.board, atRigTime: at)) }
      guard let boardTime = rig.boardTime(part.board, atRigTime: at) else {
        throw RigError(.board, board: name, "no clock sync with the board (is it running?)")
      }
      do {
        try action(part.player, boardTime)
      } catch {
        throw RigError(.player, board: name, error.message)
      }
    }
    return at
  }
}
