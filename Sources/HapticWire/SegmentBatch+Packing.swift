public import HapticRenderer

extension SegmentBatch {
  /// Contiguous segments starting at board frame `startFrame`, packed into as few `queue` (or,
  /// with `replace`, one `replace` then `queue`) messages as fit a frame each: at most 246
  /// payload bytes and 255 segments. Each message's start time is its first frame's board tick
  /// (low 32 bits). Segments longer than a varint allows must already be split (the renderer's
  /// ``HapticRenderer/SegmentEncoder`` never makes them).
  public static func messages(
    for segments: [HapticRenderer.Segment], channel: UInt8, startFrame: Int, levelBytes: Int,
    ticksPerFrame: UInt64, replace: Bool = false
  ) -> [WireMessage] {
    let header = 7
    var messages: [WireMessage] = []
    var chunk: [Segment] = []
    var chunkStart = startFrame
    var frame = startFrame
    var size = header
    var previous: HapticRenderer.Segment?
    func flush() {
      guard !chunk.isEmpty else { return }
      let batch = SegmentBatch(
        channel: channel, startTime: UInt32(truncatingIfNeeded: UInt64(max(chunkStart, 0)) &* ticksPerFrame),
        levelBytes: UInt8(levelBytes), segments: chunk)
      messages.append(replace && messages.isEmpty ? .replaceSegments(batch) : .queueSegments(batch))
      chunk = []
      size = header
      previous = nil
      chunkStart = frame
    }
    for segment in segments {
      let bytes = SegmentPayload.size(segment, after: previous, levelBytes: levelBytes)
      if size + bytes > WireFrame.maxPayload || chunk.count == 255 {
        flush()
        size += SegmentPayload.size(segment, after: nil, levelBytes: levelBytes)
      } else {
        size += bytes
      }
      chunk.append(
        Segment(
          frames: segment.frames, startLevel: segment.startLevel, endLevel: segment.endLevel,
          startFrequency: segment.startFrequency, endFrequency: segment.endFrequency))
      previous = segment
      frame += segment.frames
    }
    flush()
    return messages
  }
}
