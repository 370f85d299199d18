import HapticWire

/// Packs the scheduler's batches into wire messages (``HapticWire/SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:)``):
/// only the first message of a replace replaces; the rest append behind it.
enum BatchPacker {
  static func messages(
    for batch: StreamScheduler.Batch, levelBytes: Int, ticksPerFrame: UInt64
  ) -> [WireMessage] {
    SegmentBatch.messages(
      for: batch.segments, channel: UInt8(clamping: batch.channel), startFrame: batch.startFrame,
      levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, replace: batch.replace)
  }
}
