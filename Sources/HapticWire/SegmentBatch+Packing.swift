public import HapticRenderer

/// Packs a stream of contiguous renderer segments into `SegmentBatch`es that each fit one frame:
/// at most 246 payload bytes (the 7-byte batch header included; or a smaller bound) and 255
/// segments. Each batch's
/// start time is its first frame's board tick (low 32 bits). The one packing rule behind
/// ``SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:)`` (the
/// engine's batches) and ``SegmentFramer`` (render sizes). Segments longer than a varint allows
/// must already be split (the renderer's ``HapticRenderer/SegmentEncoder`` never makes them).
public struct SegmentBatchPacker: Sendable {
  private static let header = 7
  private let maximumPayload: Int
  private let channel: UInt8
  private let levelBytes: Int
  private let ticksPerFrame: UInt64
  private var chunk: [SegmentBatch.Segment] = []
  private var chunkStart: Int
  private var frame: Int
  private var size = header
  private var previous: HapticRenderer.Segment?

  /// A packer for `channel` whose first segment starts at board frame `startFrame`, closing a
  /// batch before its payload would pass `maximumPayload` bytes (at most a frame's).
  public init(
    channel: UInt8, levelBytes: Int, ticksPerFrame: UInt64, startFrame: Int,
    maximumPayload: Int = WireFrame.maxPayload
  ) {
    self.maximumPayload = min(max(maximumPayload, 32), WireFrame.maxPayload)
    self.channel = channel
    self.levelBytes = levelBytes
    self.ticksPerFrame = ticksPerFrame
    chunkStart = startFrame
    frame = startFrame
  }

  /// Adds the next segment; returns the batch it closed when it no longer fitted.
  public mutating func add(_ segment: HapticRenderer.Segment) -> SegmentBatch? {
    var closed: SegmentBatch?
    var bytes = SegmentPayload.size(segment, after: previous, levelBytes: levelBytes)
    if !chunk.isEmpty && (size + bytes > maximumPayload || chunk.count == 255) {
      closed = finish()
      // The first of a new batch: it no longer continues from a previous segment.
      bytes = SegmentPayload.size(segment, after: nil, levelBytes: levelBytes)
    }
    size += bytes
    chunk.append(
      SegmentBatch.Segment(
        frames: segment.frames, startLevel: segment.startLevel, endLevel: segment.endLevel,
        startFrequency: segment.startFrequency, endFrequency: segment.endFrequency))
    previous = segment
    frame += segment.frames
    return closed
  }

  /// Closes the batch in progress, if any.
  public mutating func finish() -> SegmentBatch? {
    guard !chunk.isEmpty else { return nil }
    let batch = SegmentBatch(
      channel: channel, startTime: UInt32(truncatingIfNeeded: UInt64(max(chunkStart, 0)) &* ticksPerFrame),
      levelBytes: UInt8(levelBytes), segments: chunk)
    chunk = []
    size = Self.header
    previous = nil
    chunkStart = frame
    return batch
  }
}

extension SegmentBatch {
  /// Contiguous segments starting at board frame `startFrame`, packed into as few `queue` (or,
  /// with `replace`, one `replace` then `queue`) messages as fit `maximumPayload` bytes each
  /// (``SegmentBatchPacker``).
  public static func messages(
    for segments: [HapticRenderer.Segment], channel: UInt8, startFrame: Int, levelBytes: Int,
    ticksPerFrame: UInt64, replace: Bool = false, maximumPayload: Int = WireFrame.maxPayload
  ) -> [WireMessage] {
    var packer = SegmentBatchPacker(
      channel: channel, levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, startFrame: startFrame,
      maximumPayload: maximumPayload)
    var batches: [SegmentBatch] = []
    for segment in segments {
      if let batch = packer.add(segment) { batches.append(batch) }
    }
    if let batch = packer.finish() { batches.append(batch) }
    return batches.enumerated().map { index, batch in
      replace && index == 0 ? .replaceSegments(batch) : .queueSegments(batch)
    }
  }
}
