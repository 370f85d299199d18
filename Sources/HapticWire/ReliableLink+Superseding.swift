/// Withdrawing segment batches a `replace` makes moot before they ever leave (docs/protocol.md §8).
///
/// A batch cuts the channel's queue at its start (§6.5) and a `replace` drops everything queued
/// from its start on, so a batch for the same channel that starts at or after a `replace`'s
/// start changes nothing the board plays once the `replace` has arrived: sent first, it is
/// queued and then dropped whole. While such a batch still waits for window space (never sent,
/// so never numbered) it is withdrawn instead. Without this, changes made faster than a lossy
/// line drains queued every earlier change's re-rendered drive in front of the newest: at 1 %
/// byte loss and 115 200 baud, an intensity change every 30–70 ms left 40–60 messages waiting,
/// the delivery delay rose past 0.4 s (and the lookahead with it, so each change re-sent more),
/// and changes arrived 0.3–0.4 s late, with the board running dry behind them.
extension ReliableLink {
  /// Withdraws the messages waiting for window space that `message` supersedes (see above);
  /// returns how many. Frames already numbered (sent, or left to resend) are never withdrawn:
  /// the peer's sequence counts on them.
  @discardableResult
  mutating func withdrawSuperseded(by message: WireMessage) -> Int {
    guard case .replaceSegments(let batch) = message else { return 0 }
    let before = waiting.count
    waiting.removeAll { Self.isSegmentBatch($0.type, $0.payload, on: batch.channel, from: batch.startTime) }
    let withdrawn = before - waiting.count
    statistics.withdrawnSuperseded += withdrawn
    return withdrawn
  }

  /// Whether a frame of `type` with `payload` is a segment batch (queue or replace) for
  /// `channel` that starts at or after board tick `start` (u32 ticks wrap: "after" is within
  /// half the range ahead).
  static func isSegmentBatch(_ type: UInt8, _ payload: [UInt8], on channel: UInt8, from start: UInt32) -> Bool {
    guard type == WireMessage.Kind.queueSegments.rawValue || type == WireMessage.Kind.replaceSegments.rawValue
    else { return false }
    // The batch header: channel, then start time (§6.5).
    var reader = WireReader(payload)
    guard let batchChannel = try? reader.u8(), batchChannel == channel, let batchStart = try? reader.u32() else {
      return false
    }
    return Int32(bitPattern: batchStart &- start) >= 0
  }
}
