import HapticWire

/// Packs the scheduler's batches into wire messages (``HapticWire/SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:)``):
/// only the first message of a replace replaces; the rest append behind it. Messages carry at
/// most ``maximumPayload`` bytes: on a lossy line a frame's chance to arrive falls with its
/// length (1 % byte loss: 60 % for a 50-byte frame, 8 % for a full one), and a lost one costs
/// only itself and what follows it to resend (docs/protocol.md §8).
enum BatchPacker {
  /// The largest segment-batch payload the engine sends, bytes.
  static let maximumPayload = 64

  static func messages(
    for batch: StreamScheduler.Batch, levelBytes: Int, ticksPerFrame: UInt64
  ) -> [WireMessage] {
    SegmentBatch.messages(
      for: batch.segments, channel: UInt8(clamping: batch.channel), startFrame: batch.startFrame,
      levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, replace: batch.replace, maximumPayload: maximumPayload)
  }
}
