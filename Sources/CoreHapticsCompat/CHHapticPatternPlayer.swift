public import Foundation
import HapticCore
import HapticEngine

/// Plays a pattern (Apple's `CHHapticPatternPlayer`). Times are engine times; 0
/// (`CHHapticTimeImmediate`) or a past time means "now".
public protocol CHHapticPatternPlayer: AnyObject {
  /// Plays from the start at `time` (a playing player restarts).
  func start(atTime time: TimeInterval) throws
  /// Stops at `time`.
  func stop(atTime time: TimeInterval) throws
  /// Dynamic parameters from `time` on (each one's `relativeTime` is an offset from it).
  func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws
  /// A parameter curve whose start is `time` (its own `relativeTime` is replaced).
  func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws
  /// Drops pending commands and stops as soon as possible.
  func cancel() throws
  /// Silences the player (it keeps its place).
  var isMuted: Bool { get set }
}

/// A player with pause, resume, seek, loop, rate and a completion handler (Apple's
/// `CHHapticAdvancedPatternPlayer`).
public protocol CHHapticAdvancedPatternPlayer: CHHapticPatternPlayer {
  typealias CompletionHandler = ((any Error)?) -> Void
  /// Pauses at `time`.
  func pause(atTime time: TimeInterval) throws
  /// Resumes at `time` from where it paused.
  func resume(atTime time: TimeInterval) throws
  /// Jumps to `offsetTime` seconds into the pattern.
  func seek(toOffset offsetTime: TimeInterval) throws
  /// Loop back to the start on reaching ``loopEnd``.
  var loopEnabled: Bool { get set }
  /// Where a loop wraps; 0 = the end of the last event.
  var loopEnd: TimeInterval { get set }
  /// Speed of the timeline; values ≤ 0 are ignored.
  var playbackRate: Float { get set }
  /// Called when the player finishes (with an error when it was invalidated).
  var completionHandler: CompletionHandler { get set }
}

/// A ``CHHapticPatternPlayer`` over hapticctl's player. Unchecked: one `let` of a `Sendable`
/// player; not final only so the advanced player can extend it.
class CHPatternPlayer: CHHapticPatternPlayer, @unchecked Sendable {
  let player: HapticPatternPlayer

  init(_ player: HapticPatternPlayer) { self.player = player }

  func start(atTime time: TimeInterval) throws {
    try bridged { () throws(HapticEngineError) in try player.start(atTime: time) }
  }

  func stop(atTime time: TimeInterval) throws {
    try bridged { () throws(HapticEngineError) in try player.stop(atTime: time) }
  }

  func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws {
    var steps: [DynamicParameter] = []
    for parameter in parameters { steps.append(try parameter.model()) }
    try bridged { () throws(HapticEngineError) in try player.sendParameters(steps, atTime: time) }
  }

  func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws {
    let curve = try parameterCurve.model()
    try bridged { () throws(HapticEngineError) in try player.scheduleParameterCurve(curve, atTime: time) }
  }

  func cancel() throws {
    try bridged { () throws(HapticEngineError) in try player.cancel() }
  }

  var isMuted: Bool {
    get { player.isMuted }
    set { player.isMuted = newValue }
  }
}

/// A ``CHHapticAdvancedPatternPlayer`` over hapticctl's advanced player.
/// Unchecked as its base: `let`s only (a `Sendable` handler box).
final class CHAdvancedPatternPlayer: CHPatternPlayer, CHHapticAdvancedPatternPlayer, @unchecked Sendable {
  private var advanced: HapticAdvancedPatternPlayer { player as! HapticAdvancedPatternPlayer }
  private let handler = UncheckedLockedHandler()

  init(_ player: HapticAdvancedPatternPlayer) {
    super.init(player)
    player.completionHandler = { [handler] error in
      handler.call(error.map { error in (error as? HapticEngineError).map(CHHapticError.init) ?? error })
    }
  }

  func pause(atTime time: TimeInterval) throws {
    try bridged { () throws(HapticEngineError) in try advanced.pause(atTime: time) }
  }

  func resume(atTime time: TimeInterval) throws {
    try bridged { () throws(HapticEngineError) in try advanced.resume(atTime: time) }
  }

  func seek(toOffset offsetTime: TimeInterval) throws {
    try bridged { () throws(HapticEngineError) in try advanced.seek(toOffset: offsetTime) }
  }

  var loopEnabled: Bool {
    get { advanced.loopEnabled }
    set { advanced.loopEnabled = newValue }
  }

  var loopEnd: TimeInterval {
    get { advanced.loopEnd }
    set { advanced.loopEnd = newValue }
  }

  var playbackRate: Float {
    get { Float(advanced.playbackRate) }
    set { advanced.playbackRate = Double(newValue) }
  }

  var completionHandler: CompletionHandler {
    get { handler.get() }
    set { handler.set(newValue) }
  }
}

/// A completion handler set from any thread and called from the engine's. Unchecked: `handler`
/// is read and written only under `lock`; it is Apple's non-`Sendable` handler type.
final class UncheckedLockedHandler: @unchecked Sendable {
  private let lock = NSLock()
  private var handler: ((any Error)?) -> Void = { _ in }
  func get() -> ((any Error)?) -> Void { lock.withLock { handler } }
  func set(_ newValue: @escaping ((any Error)?) -> Void) { lock.withLock { handler = newValue } }
  func call(_ error: (any Error)?) { get()(error) }
}
