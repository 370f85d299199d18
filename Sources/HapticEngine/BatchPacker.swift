import HapticWire

/// Packs the scheduler's batches into wire messages (``HapticWire/SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:holds:)``):
/// only the first message of a replace replaces; the rest append behind it, and every message
/// of a replace but the last ends with a hold segment (the next message's first level, to the
/// batch's end). A replace goes out just ahead of the board clock, so when one of its later
/// frames is lost the board would otherwise run dry until the resend: at 1 % loss, 200
/// intensity changes over 11 s gave 33 underruns (10 ms gaps at 0) without holds, 0 with them.
/// Appends go a lookahead ahead, which covers a resend; holds there only cost bytes (the 15 s
/// corpus pattern at 1 % loss drove its lookahead to the 400 ms bound). docs/protocol.md §8.
///
/// Messages carry at most 64 payload bytes, 32 once the link has lost anything: a frame's
/// chance to arrive falls with its length (at 1 % byte loss 56 % of 75-byte frames are lost,
/// 36 % of 40-byte ones), a lost frame costs itself and what follows it in go-back-N, and the
/// bytes sent per byte delivered, (L + H) / (L·(1 − p)^(L + H)) for payload L and overhead H ≈ 12,
/// are least near L = √(H/p): 33 bytes at 1 % loss. The 15 s corpus pattern (16_points) at 1 % loss had a
/// late batch in 1 run of 3 with 64-byte batches, none in 8 with 32 (docs/protocol.md §8).
enum BatchPacker {
  /// The largest segment-batch payload on a clean link, bytes.
  static let cleanPayload = 64
  /// The largest segment-batch payload on a link that has lost frames, bytes.
  static let lossyPayload = 32

  /// The payload bound for a link that has (`lossy`) or has not lost frames yet.
  static func maximumPayload(lossy: Bool) -> Int { lossy ? lossyPayload : cleanPayload }

  static func messages(
    for batch: StreamScheduler.Batch, levelBytes: Int, ticksPerFrame: UInt64, maximumPayload: Int,
    deadline: SegmentBatchPacker.Deadline? = nil
  ) -> [WireMessage] {
    SegmentBatch.messages(
      for: batch.segments, channel: UInt8(clamping: batch.channel), startFrame: batch.startFrame,
      levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, replace: batch.replace, maximumPayload: maximumPayload,
      holds: batch.replace, deadline: deadline)
  }
}
