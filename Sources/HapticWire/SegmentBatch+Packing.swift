public import HapticRenderer

/// Packs a stream of contiguous renderer segments into `SegmentBatch`es that each fit one frame:
/// at most 246 payload bytes (the 7-byte batch header included; or a smaller bound) and 255
/// segments. Each batch's
/// start time is its first frame's board tick (low 32 bits). The one packing rule behind
/// ``SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:holds:)``
/// (the engine's batches) and ``SegmentFramer`` (render sizes). Segments longer than a varint allows
/// must already be split (the renderer's ``HapticRenderer/SegmentEncoder`` never makes them).
public struct SegmentBatchPacker: Sendable {
  private static let header = 7
  private let maximumPayload: Int
  /// Payload bytes and segment slots kept free in every batch (for a hold segment).
  private let reservedBytes: Int
  private let reservedSegments: Int
  private let channel: UInt8
  private let levelBytes: Int
  private let ticksPerFrame: UInt64
  private var chunk: [SegmentBatch.Segment] = []
  private var chunkStart: Int
  private var frame: Int
  private var size = header
  private var previous: HapticRenderer.Segment?

  /// A packer for `channel` whose first segment starts at board frame `startFrame`, closing a
  /// batch before its payload would pass `maximumPayload` bytes (at most a frame's); with
  /// `reservesHold`, every batch keeps room for one more constant segment of up to 16,383
  /// frames (``SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:holds:)``).
  public init(
    channel: UInt8, levelBytes: Int, ticksPerFrame: UInt64, startFrame: Int,
    maximumPayload: Int = WireFrame.maxPayload, reservesHold: Bool = false
  ) {
    self.maximumPayload = min(max(maximumPayload, 32), WireFrame.maxPayload)
    // Flags, a two-byte duration, a start level and a start frequency.
    reservedBytes = reservesHold ? 3 + levelBytes + 2 : 0
    reservedSegments = reservesHold ? 1 : 0
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
    if !chunk.isEmpty && (size + bytes + reservedBytes > maximumPayload || chunk.count + reservedSegments == 255) {
      closed = finish()
      // The first of a new batch: it no longer continues from a previous segment.
      bytes = SegmentPayload.size(segment, after: nil, levelBytes: levelBytes)
    }
    size += bytes
    chunk.append(segment)
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
  /// The longest hold segment, frames (a two-byte duration).
  public static let maximumHoldFrames = 16_383

  /// Contiguous segments starting at board frame `startFrame`, packed into as few `queue` (or,
  /// with `replace`, one `replace` then `queue`) messages as fit `maximumPayload` bytes each
  /// (``SegmentBatchPacker``).
  ///
  /// With `holds`, every message but the last ends with a **hold segment**: from where the next
  /// message starts to the end of `segments` (at most ``maximumHoldFrames``), constant at the
  /// next message's first level (0 for a brake) and frequency. The next message starts where
  /// the hold starts, so its cut drops the hold whole; until it arrives (a lost frame being
  /// resent), the board holds the drive that comes next instead of running dry
  /// (docs/protocol.md §8).
  public static func messages(
    for segments: [HapticRenderer.Segment], channel: UInt8, startFrame: Int, levelBytes: Int,
    ticksPerFrame: UInt64, replace: Bool = false, maximumPayload: Int = WireFrame.maxPayload, holds: Bool = false
  ) -> [WireMessage] {
    func pack(reservingHolds: Bool) -> (batches: [SegmentBatch], ends: [Int]) {
      var packer = SegmentBatchPacker(
        channel: channel, levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, startFrame: startFrame,
        maximumPayload: maximumPayload, reservesHold: reservingHolds)
      var batches: [SegmentBatch] = []
      // Where each batch's segments end, in frames from `startFrame`.
      var ends: [Int] = []
      var covered = 0
      for segment in segments {
        if let batch = packer.add(segment) {
          batches.append(batch)
          ends.append(covered)
        }
        covered += segment.frames
      }
      if let batch = packer.finish() {
        batches.append(batch)
        ends.append(covered)
      }
      return (batches, ends)
    }
    var (batches, ends) = pack(reservingHolds: false)
    // What fits one message needs no hold, and no room kept for one.
    if holds && batches.count > 1 {
      (batches, ends) = pack(reservingHolds: true)
      let covered = ends.last ?? 0
      for index in batches.indices.dropLast() {
        let next = batches[index + 1].segments[0]
        let frames = min(covered - ends[index], maximumHoldFrames)
        let level = max(next.startLevel, 0)
        batches[index].segments.append(
          Segment(
            frames: frames, startLevel: level, endLevel: level, startFrequency: next.startFrequency,
            endFrequency: next.startFrequency))
      }
    }
    return batches.enumerated().map { index, batch in
      replace && index == 0 ? .replaceSegments(batch) : .queueSegments(batch)
    }
  }
}
