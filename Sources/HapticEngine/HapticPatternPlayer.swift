import Foundation
public import HapticCore

/// Plays one pattern on an engine (Core Haptics' `CHHapticPatternPlayer`). Times are engine
/// times (board seconds); 0 or a time already past means "as soon as possible".
///
/// Unchecked: only `let`s of `Sendable` values (every state is the engine's); not final only so
/// ``HapticAdvancedPatternPlayer`` can extend it.
public class HapticPatternPlayer: @unchecked Sendable {
  let engine: HapticEngine
  let id: Int
  /// The pattern this player plays.
  public let pattern: HapticPattern

  init(engine: HapticEngine, id: Int, pattern: HapticPattern) {
    self.engine = engine
    self.id = id
    self.pattern = pattern
  }

  deinit {
    engine.release(player: id)
  }

  /// Starts playing from the beginning at `time` (a playing player restarts).
  public func start(atTime time: Double = 0) throws(HapticEngineError) {
    try engine.perform(.start, player: id, at: time)
  }

  /// Stops at `time`.
  public func stop(atTime time: Double = 0) throws(HapticEngineError) {
    try engine.perform(.stop, player: id, at: time)
  }

  /// Applies dynamic parameters from `time` on (each parameter's own `time` is added to it).
  ///
  /// - Throws: `badParameterEntry` for a parameter whose value or time is not finite (or whose
  ///   time is negative), `invalidTime` for a bad `time`.
  public func sendParameters(_ parameters: [DynamicParameter], atTime time: Double = 0) throws(HapticEngineError) {
    if let problem = HapticPattern(parameters: parameters).problem {
      throw HapticEngineError(problem.code, "sendParameters: \(problem.message)")
    }
    let groups = Dictionary(grouping: parameters, by: \.time)
    for (offset, group) in groups.sorted(by: { $0.key < $1.key }) {
      try engine.perform(.parameters(group), player: id, at: time > 0 ? time + offset : offset > 0 ? engine.currentTime + offset : 0)
    }
  }

  /// Schedules a parameter curve: its `time` is replaced by `time` (Core Haptics' rule), its
  /// points are relative to that.
  ///
  /// - Throws: `badParameterEntry` for a control point whose time or value is not finite (or
  ///   whose time is negative), `invalidTime` for a bad `time`.
  public func scheduleParameterCurve(_ curve: ParameterCurve, atTime time: Double = 0) throws(HapticEngineError) {
    var anchored = curve
    anchored.time = 0
    if let problem = HapticPattern(curves: [anchored]).problem {
      throw HapticEngineError(problem.code, "scheduleParameterCurve: \(problem.message)")
    }
    try engine.perform(.curve(curve), player: id, at: time)
  }

  /// Drops every pending command and stops as soon as possible.
  public func cancel() throws(HapticEngineError) {
    try engine.cancel(player: id)
  }

  /// Silences the player (it keeps its place in the pattern).
  public var isMuted: Bool {
    get { engine.isMuted(player: id) }
    set { try? engine.perform(.mute(newValue), player: id, at: 0) }
  }
}

/// A player with pause, resume, seek, looping and playback rate (Core Haptics'
/// `CHHapticAdvancedPatternPlayer`).
///
/// Unchecked as its base: no stored state of its own.
public final class HapticAdvancedPatternPlayer: HapticPatternPlayer, @unchecked Sendable {

  /// Pauses at `time`; continuous events resume mid-event.
  public func pause(atTime time: Double = 0) throws(HapticEngineError) {
    try engine.perform(.pause, player: id, at: time)
  }

  /// Resumes at `time` from where it paused.
  public func resume(atTime time: Double = 0) throws(HapticEngineError) {
    try engine.perform(.resume, player: id, at: time)
  }

  /// Jumps to `offset` seconds into the pattern, now. Events under way at the offset do not
  /// start mid-event; an offset at or past the end finishes (or, looping, wraps to the start).
  public func seek(toOffset offset: Double) throws(HapticEngineError) {
    try seek(toOffset: offset, atTime: 0)
  }

  /// Jumps to `offset` at engine time `time` (an extension of Core Haptics' seek, for starting
  /// a player part-way in: start it and seek it at the same time).
  public func seek(toOffset offset: Double, atTime time: Double) throws(HapticEngineError) {
    guard offset >= 0, offset.isFinite else {
      throw HapticEngineError(.operationNotPermitted, "seek offset \(offset) must be 0 or more")
    }
    try engine.perform(.seek(offset), player: id, at: time)
  }

  /// Engine time (board seconds) at which the player last started, once the start is scheduled.
  public var startTime: Double? { engine.startTime(player: id) }

  /// Loop back to the start on reaching ``loopEnd``.
  public var loopEnabled: Bool {
    get { engine.loop(player: id).enabled }
    set { engine.setLoop(player: id, enabled: newValue) }
  }

  /// Where a loop wraps, pattern seconds; 0 = the end of the last event.
  public var loopEnd: Double {
    get { engine.loop(player: id).end }
    set {
      guard newValue >= 0, newValue.isFinite else { return }
      engine.setLoop(player: id, end: newValue)
    }
  }

  /// Speed of the pattern's timeline (no pitch change), 1/64 to 64; other values (≤ 0 among
  /// them, as Apple ignores) are ignored. Kept while the engine is stopped.
  public var playbackRate: Double {
    get { engine.rate(player: id) }
    set {
      guard PlayerTrack.rates.contains(newValue) else { return }
      try? engine.setRate(player: id, newValue)
    }
  }

  /// Changes ``playbackRate`` at engine time `time` rather than as soon as the board can take
  /// it (not in Core Haptics: a rig re-sets its boards' rates a little ahead, so the re-render
  /// never races the board's clock). The pattern time at `time` is kept exactly.
  public func setPlaybackRate(_ rate: Double, atTime time: Double) throws(HapticEngineError) {
    guard PlayerTrack.rates.contains(rate) else { return }
    try engine.setRate(player: id, rate, at: time)
  }

  /// Called when the player finishes (error set when it was invalidated or the board failed).
  public var completionHandler: (@Sendable ((any Error)?) -> Void)? {
    get { engine.completion(player: id) }
    set { engine.setCompletion(player: id, newValue) }
  }
}
