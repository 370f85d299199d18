import HapticLocks
import HapticWire

/// Where the engine's frames lie on the board's clock.
///
/// Frame `k` starts at board tick `k · ticksPerFrame + offset`; engine time (every `atTime:`,
/// ``HapticEngine/currentTime``) is the board's clock less the offset, so frames start on
/// whole multiples of the frame period in engine time. The offset is 0 unless a rig moves it:
/// a board's frames lie wherever its clock happens to be, and several boards started "at the
/// same instant" would each round that instant to their own frame, up to a frame apart. Moving
/// the grid so that the instant is a frame start on every board takes the rounding out of the
/// onsets (docs/rigs.md). The grid moves only while nothing plays or is queued.
extension HapticEngine {
  /// The offset in board ticks (0 ≤ offset < ticks per frame).
  var gridOffsetTicks: UInt64 { gridOffset.withLock { $0 } }

  /// The offset in board seconds.
  var gridOffsetSeconds: Double {
    Double(gridOffsetTicks) / Double(max(link.capabilities.clockFrequency, 1))
  }

  /// Engine time at host time `t` (the board's clock less the grid's offset), nil before
  /// clock sync.
  func engineSeconds(atHost t: Double) -> Double? {
    link.boardSeconds(atHost: t).map { $0 - gridOffsetSeconds }
  }

  /// Engine time at the link's host time `t` (seconds of ``BoardLink/hostNow``'s clock), nil
  /// before clock sync: what `atTime:` means for an instant the caller knows on the host's clock.
  public func engineTime(atHost t: Double) -> Double? { engineSeconds(atHost: t) }

  /// Moves the frame grid so that a frame starts at host time `t` (the link's clock), when
  /// nothing plays, is pending or is queued on the board; returns whether it did. Then
  /// ``engineTime(atHost:)`` of `t` is a whole number of frame periods, and a player started at
  /// it starts exactly there (not rounded to the nearest frame: up to half a frame off).
  @discardableResult
  public func alignFrames(atHost t: Double) -> Bool {
    sendOrder.withLock {
      state.withLock { state -> Bool in
        guard state.running, let scheduler = state.scheduler, scheduler.isQuiet, !state.playing,
          let board = link.boardSeconds(atHost: t), board >= 0
        else { return false }
        let frequency = Double(link.capabilities.clockFrequency)
        let ticks = UInt64((board * frequency).rounded())
        gridOffset.withLock { $0 = ticks % ticksPerFrame }
        return true
      }
    }
  }

  /// `message` with its start moved by the grid's offset (segment batches and ROM effects carry
  /// board ticks; the scheduler counts in frames from tick 0).
  func onGrid(_ message: WireMessage) -> WireMessage {
    let offset = UInt32(truncatingIfNeeded: gridOffsetTicks)
    guard offset != 0 else { return message }
    switch message {
    case .queueSegments(var batch):
      batch.startTime &+= offset
      return .queueSegments(batch)
    case .replaceSegments(var batch):
      batch.startTime &+= offset
      return .replaceSegments(batch)
    case .playROMEffect(let channel, let library, let effect, let startTime):
      return .playROMEffect(channel: channel, library: library, effect: effect, startTime: startTime &+ offset)
    default:
      return message
    }
  }
}
