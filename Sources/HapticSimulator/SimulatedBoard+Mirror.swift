public import HapticWire

/// A simulated board as the host's picture of another board (`MirroredBoardLink`): the
/// messages a host sends to a real board, applied here without a link, so this board's queues
/// and actuator physics show what that board plays and what it feels like (the server's 200 Hz
/// stream of a serial board).
extension SimulatedBoard {
  /// Applies `message` as the board it mirrors takes it now (at ``time``, which the mirror keeps
  /// at that board's clock): segment batches are queued or replace, `stop` stops; other messages
  /// change nothing the mirror plays. Every message feeds the watchdog, as a frame would.
  public mutating func mirror(_ message: WireMessage) {
    lastValidFrame = time
    switch message {
    case .queueSegments(let batch), .replaceSegments(let batch):
      let channel = Int(batch.channel)
      guard channel < queues.count else { return }
      // A batch the queue cannot hold changes nothing (the mirrored board refuses it whole
      // too); the mirror has no one to tell.
      let current = now
      // Segments already played leave first: a picture nobody samples runs no physics steps,
      // and its queue would otherwise keep every segment ever sent.
      _ = queues[channel].drive(at: current)
      _ = queues[channel].enqueue(
        batch, start: extended(batch.startTime, near: current), now: current, replace: message.kind == .replaceSegments)
    case .stop(let mask):
      stop(mask: mask)
    default:
      return
    }
  }

  /// Stops the channels in `mask` (bit 7 stands for channel 7 and up: 0xFF is all, §6.6).
  mutating func stop(mask: UInt8) {
    for channel in queues.indices where mask & (1 << min(channel, 7)) != 0 { queues[channel].stop() }
  }

  /// A 32-bit board time extended to the 64-bit clock: the nearest such time to `current` (§6.2).
  func extended(_ startTime: UInt32, near current: UInt64) -> UInt64 {
    let delta = Int64(Int32(bitPattern: startTime &- UInt32(truncatingIfNeeded: current)))
    return UInt64(max(Int64(current) + delta, 0))
  }
}
