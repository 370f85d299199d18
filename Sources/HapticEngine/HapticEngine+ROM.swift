import HapticCore
import HapticLocks
import HapticRenderer
import HapticWire

/// The driver's ROM effects (docs/protocol.md §6.10): boards with the *ROM effects* feature (the
/// DRV2605L's libraries 1–7, effects 1–123) play one of their built-in effects on a channel, in
/// place of the channel's queued drive for the effect's length.
extension HapticEngine {
  /// The ROM effect numbers a board takes (§6.10).
  public static let romEffects = 1...123
  /// The ROM libraries a board takes (§6.10).
  public static let romLibraries = 1...7

  /// Plays effect `effect` of the driver's ROM `library` on `channel` at the earliest frame
  /// a change made now can reach (as a player's live change: the guard, behind what is still on
  /// the wire), in order with the drive already sent. Returns the board seconds it starts at.
  ///
  /// - Throws: ``HapticEngineError`` `notSupported` when the board has no ROM effects,
  ///   `invalidEngineParameter` for an effect, library or channel out of range,
  ///   `engineNotRunning` before the engine runs or has the board's clock.
  @discardableResult
  public func playROMEffect(_ effect: Int, library: Int = 1, channel: Int = 0) throws(HapticEngineError) -> Double {
    guard capabilities.features.contains(.romEffects) else {
      throw HapticEngineError(.notSupported, "\(capabilities.boardID) has no driver ROM effects (only DRV2605 boards do)")
    }
    guard Self.romEffects.contains(effect) else {
      throw HapticEngineError(.invalidEngineParameter, "ROM effect \(effect) is not one of 1–123")
    }
    guard Self.romLibraries.contains(library) else {
      throw HapticEngineError(.invalidEngineParameter, "ROM library \(library) is not one of 1–7")
    }
    guard profile.channels.indices.contains(channel) else {
      throw HapticEngineError(
        .invalidEngineParameter, "\(capabilities.boardID) has no channel \(channel) (it has \(profile.channels.count))")
    }
    guard isRunning else { throw .notRunning("ROM effect") }
    let frame = try sendOrder.withLock { () throws(HapticEngineError) -> Int in
      guard let (now, least) = changeClock() else {
        throw HapticEngineError(.engineNotRunning, "no clock sync with the board")
      }
      let frame = max(least, now + 1)
      try link.send(
        onGrid(
          .playROMEffect(
            channel: UInt8(channel), library: UInt8(library), effect: UInt8(effect),
            startTime: UInt32(truncatingIfNeeded: UInt64(frame) &* ticksPerFrame))))
      return frame
    }
    return Double(frame) * framePeriod
  }
}
