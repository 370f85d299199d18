public import HapticRenderer

/// Packs a stream of contiguous renderer segments into `SegmentBatch`es that each fit one frame:
/// at most 246 payload bytes (the 7-byte batch header included; or a smaller bound) and 255
/// segments. Each batch's
/// start time is its first frame's board tick (low 32 bits). The one packing rule behind
/// ``SegmentBatch/messages(for:channel:startFrame:levelBytes:ticksPerFrame:replace:maximumPayload:holds:)``
/// (the engine's batches) and ``SegmentFramer`` (render sizes). Segments longer than a varint allows
/// must already be split (the renderer's ``HapticRenderer/SegmentEncoder`` never makes them).
public struct SegmentBatchPacker: Sendable {
  /// When each batch must be on the board: before the drive it carries starts. The first
  /// batch has `lead` seconds for its transmission (from being written to its start); each
  /// later one the drive of those before it besides. A batch closes before a segment that would
  /// make it arrive late (it always takes one). A change placed just ahead of the board clock
  /// then goes out as a short first batch and grows after it, instead of one long first frame
  /// whose transmission the change would have to wait for (docs/protocol.md §8).
  public struct Deadline: Sendable {
    /// Seconds from writing the first batch to its first segment's start.
    public var lead: Double
    /// Seconds a byte takes on the wire (the link's rate; more when other batches interleave).
    public var secondsPerByte: Double
    /// Seconds per drive frame.
    public var framePeriod: Double

    /// A deadline.
    public init(lead: Double, secondsPerByte: Double, framePeriod: Double) {
      self.lead = lead
      self.secondsPerByte = secondsPerByte
      self.framePeriod = framePeriod
    }
  }

  private static let header = 7
  private let maximumPayload: Int
  private let deadline: Deadline?
  /// Seconds from writing the first batch until every closed batch has arrived.
  private var arrival = 0.0
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
    maximumPayload: Int = WireFrame.maxPayload, reservesHold: Bool = false, deadline: Deadline? = nil
  ) {
    self.maximumPayload = min(max(maximumPayload, 32), WireFrame.maxPayload)
    self.deadline = deadline
    // Flags, a two-byte duration, a start level and a start frequency.
    reservedBytes = reservesHold ? 3 + levelBytes + 2 : 0
    reservedSegments = reservesHold ? 1 : 0
    self.channel = channel
    self.levelBytes = levelBytes
    self.ticksPerFrame = ticksPerFrame
    firstFrame = startFrame
    chunkStart = startFrame
    frame = startFrame
  }

  /// How late the latest of `messages` (one channel's, in order, the first starting `lead`
  /// after being written) arrives after its drive starts, seconds; 0 or less when all are in
  /// time.
  public static func lateness(of messages: [WireMessage], deadline: Deadline, startFrame: Int, ticksPerFrame: UInt64) -> Double {
    var arrival = 0.0
    var worst = -Double.infinity
    for message in messages {
      let batch: SegmentBatch
      switch message {
      case .queueSegments(let queued), .replaceSegments(let queued): batch = queued
      default: continue
      }
      arrival += Double(ReliableLink.sizeBound(message.payload().count)) * deadline.secondsPerByte
      worst = max(worst, arrival - start(of: batch, deadline, startFrame, ticksPerFrame))
    }
    return worst
  }

  /// Seconds from writing the first message to `batch`'s drive.
  private static func start(of batch: SegmentBatch, _ deadline: Deadline, _ startFrame: Int, _ ticksPerFrame: UInt64) -> Double {
    let first = UInt32(truncatingIfNeeded: UInt64(max(startFrame, 0)) &* ticksPerFrame)
    let frames = Double(batch.startTime &- first) / Double(ticksPerFrame)
    return deadline.lead + frames * deadline.framePeriod
  }

  /// The packing's first frame (the deadline's drive counts from it).
  private let firstFrame: Int

  /// Whether a batch of `payload` bytes, closed now, would arrive after its drive starts.
  private func late(_ payload: Int) -> Bool {
    guard let deadline else { return false }
    let arrives = arrival + Double(ReliableLink.sizeBound(payload)) * deadline.secondsPerByte
    return arrives > deadline.lead + Double(chunkStart - firstFrame) * deadline.framePeriod
  }

  /// Adds the next segment; returns the batch it closed when it no longer fitted.
  public mutating func add(_ segment: HapticRenderer.Segment) -> SegmentBatch? {
    var closed: SegmentBatch?
    var bytes = SegmentPayload.size(segment, after: previous, levelBytes: levelBytes)
    // A batch that is late whatever it holds (drive denser than the line: the deadline cannot be
    // met) is packed full instead, so those after it catch up.
    if !chunk.isEmpty
      && (size + bytes + reservedBytes > maximumPayload || chunk.count + reservedSegments == 255
        || (late(size + bytes + reservedBytes) && !late(size + reservedBytes)))
    {
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
    if let deadline { arrival += Double(ReliableLink.sizeBound(size + reservedBytes)) * deadline.secondsPerByte }
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
  /// and, with a `deadline`, arrive before their drive starts (``SegmentBatchPacker``).
  ///
  /// With `holds`, every message but the last ends with a **hold segment**: from where the next
  /// message starts to the end of `segments` (at most ``maximumHoldFrames``), constant at the
  /// next message's first level (0 for a brake) and frequency. The next message starts where
  /// the hold starts, so its cut drops the hold whole; until it arrives (a lost frame being
  /// resent), the board holds the drive that comes next instead of running dry
  /// (docs/protocol.md §8).
  public static func messages(
    for segments: [HapticRenderer.Segment], channel: UInt8, startFrame: Int, levelBytes: Int,
    ticksPerFrame: UInt64, replace: Bool = false, maximumPayload: Int = WireFrame.maxPayload, holds: Bool = false,
    deadline: SegmentBatchPacker.Deadline? = nil
  ) -> [WireMessage] {
    func pack(reservingHolds: Bool) -> (batches: [SegmentBatch], ends: [Int]) {
      var packer = SegmentBatchPacker(
        channel: channel, levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, startFrame: startFrame,
        maximumPayload: maximumPayload, reservesHold: reservingHolds, deadline: deadline)
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
