public import HapticRenderer

/// Packs a channel's segment stream into `queue segments` frames as they would go on the wire:
/// as many contiguous segments per batch as fit a frame (246 payload bytes, 255 segments), each
/// frame COBS-encoded with its delimiter. Used to size renders (`hapticctl render` `wire_bytes`)
/// and by the streaming scheduler.
public struct SegmentFramer: Sendable {
  private let channel: UInt8
  private let levelBytes: UInt8
  /// Board ticks per frame (the protocol's board clock runs at `clockFrequency`).
  private let ticksPerFrame: Double
  private var pending: [SegmentBatch.Segment] = []
  private var pendingStart = 0
  private var pendingPayload = 0
  private var sequence: UInt8 = 0
  /// Encoded bytes produced so far.
  public private(set) var wireBytes = 0
  /// Frames produced so far.
  public private(set) var frames = 0

  private static let batchHeader = 7

  /// Creates a framer for `channel`.
  ///
  /// - Parameters:
  ///   - channel: the channel index.
  ///   - levelBytes: bytes per level (``HapticRenderer/BoardProfile/levelBytes``).
  ///   - framePeriod: seconds per frame.
  ///   - clockFrequency: board ticks per second.
  public init(channel: UInt8, levelBytes: Int, framePeriod: Double, clockFrequency: Double = 1_000_000) {
    self.channel = channel
    self.levelBytes = UInt8(levelBytes)
    ticksPerFrame = framePeriod * clockFrequency
  }

  /// Adds a segment; returns the encoded frame when a batch filled up.
  public mutating func add(_ segment: Segment) -> [UInt8]? {
    let wire = SegmentBatch.Segment(
      frames: segment.frames, startLevel: segment.startLevel, endLevel: segment.endLevel,
      startFrequency: segment.startFrequency, endFrequency: segment.endFrequency)
    var encoded = WireWriter()
    SegmentBatch.encode(wire, after: pending.last, levelBytes: levelBytes, into: &encoded)
    var output: [UInt8]?
    if !pending.isEmpty
      && (Self.batchHeader + pendingPayload + encoded.bytes.count > WireFrame.maxPayload || pending.count == 255)
    {
      output = flush()
      // Re-encode as the first of a new batch (it no longer continues from a previous segment).
      encoded = WireWriter()
      SegmentBatch.encode(wire, after: nil, levelBytes: levelBytes, into: &encoded)
    }
    if pending.isEmpty { pendingStart = segment.startFrame }
    pending.append(wire)
    pendingPayload += encoded.bytes.count
    return output
  }

  /// Emits the last, partial batch.
  public mutating func finish() -> [UInt8]? {
    pending.isEmpty ? nil : flush()
  }

  private mutating func flush() -> [UInt8] {
    let batch = SegmentBatch(
      channel: channel, startTime: UInt32(truncatingIfNeeded: Int((Double(pendingStart) * ticksPerFrame).rounded())),
      levelBytes: levelBytes, segments: pending)
    let message = WireMessage.queueSegments(batch)
    let frame = WireFrame(
      flags: [.reliable, .ackValid], session: 1, seq: sequence, ack: 0, type: message.kind.rawValue,
      payload: message.payload())
    sequence &+= 1
    pending.removeAll(keepingCapacity: true)
    pendingPayload = 0
    let bytes = frame.encoded()
    wireBytes += bytes.count
    frames += 1
    return bytes
  }
}
