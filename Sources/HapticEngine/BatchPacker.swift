import HapticRenderer
import HapticWire

/// Packs the scheduler's batches into wire messages: as many contiguous segments per
/// `queue`/`replace segments` message as fit a frame (246 payload bytes, 255 segments). Only
/// the first message of a replace replaces; the rest append behind it.
enum BatchPacker {
  private static let header = 7

  static func messages(
    for batch: StreamScheduler.Batch, levelBytes: Int, ticksPerFrame: UInt64
  ) -> [WireMessage] {
    var messages: [WireMessage] = []
    var chunk: [SegmentBatch.Segment] = []
    var chunkStart = batch.startFrame
    var frame = batch.startFrame
    var size = header
    var previous: Segment?
    func flush() {
      guard !chunk.isEmpty else { return }
      let wire = SegmentBatch(
        channel: UInt8(clamping: batch.channel),
        startTime: UInt32(truncatingIfNeeded: UInt64(max(chunkStart, 0)) &* ticksPerFrame),
        levelBytes: UInt8(levelBytes), segments: chunk)
      messages.append(batch.replace && messages.isEmpty ? .replaceSegments(wire) : .queueSegments(wire))
      chunk = []
      size = header
      previous = nil
      chunkStart = frame
    }
    // Segments come from SegmentEncoder, so each fits its varint (≤ 65 535 frames).
    for segment in batch.segments {
      let bytes = SegmentPayload.size(segment, after: previous, levelBytes: levelBytes)
      if size + bytes > WireFrame.maxPayload || chunk.count == 255 {
        flush()
        size += SegmentPayload.size(segment, after: nil, levelBytes: levelBytes)
      } else {
        size += bytes
      }
      chunk.append(
        SegmentBatch.Segment(
          frames: segment.frames, startLevel: segment.startLevel, endLevel: segment.endLevel,
          startFrequency: segment.startFrequency, endFrequency: segment.endFrequency))
      previous = segment
      frame += segment.frames
    }
    flush()
    return messages
  }
}
