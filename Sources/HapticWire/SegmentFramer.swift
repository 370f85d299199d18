public import HapticRenderer

/// Packs a channel's segment stream into `queue segments` frames as they would go on the wire:
/// as many contiguous segments per batch as fit a frame (246 payload bytes, 255 segments), each
/// frame COBS-encoded with its delimiter. Used to size renders (`hapticctl render` `wire_bytes`);
/// the batches are ``SegmentBatchPacker``'s, as the engine's are.
public struct SegmentFramer: Sendable {
  private let channel: UInt8
  private let levelBytes: Int
  /// Board ticks per frame (the protocol's board clock runs at `clockFrequency`).
  private let ticksPerFrame: UInt64
  /// Made at the first segment, which gives the stream's start frame.
  private var packer: SegmentBatchPacker?
  private var sequence: UInt8 = 0
  /// Encoded bytes produced so far.
  public private(set) var wireBytes = 0
  /// Frames produced so far.
  public private(set) var frames = 0
  /// The bare ``SegmentPayload`` bytes of the stream so far (each segment after the one
  /// before it, as one continuous stream: no batch headers, framing or first-of-batch repeats).
  public private(set) var segmentBytes = 0
  private var previous: Segment?

  /// Creates a framer for `channel`.
  ///
  /// - Parameters:
  ///   - channel: the channel index.
  ///   - levelBytes: bytes per level (``HapticRenderer/BoardProfile/levelBytes``).
  ///   - framePeriod: seconds per frame.
  ///   - clockFrequency: board ticks per second.
  public init(channel: UInt8, levelBytes: Int, framePeriod: Double, clockFrequency: Double = 1_000_000) {
    self.channel = channel
    self.levelBytes = levelBytes
    ticksPerFrame = UInt64((framePeriod * clockFrequency).rounded())
  }

  /// Adds a segment (the stream's segments are contiguous); returns the encoded frame when a
  /// batch filled up.
  public mutating func add(_ segment: Segment) -> [UInt8]? {
    segmentBytes += SegmentPayload.size(segment, after: previous, levelBytes: levelBytes)
    previous = segment
    if packer == nil {
      packer = SegmentBatchPacker(
        channel: channel, levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, startFrame: segment.startFrame)
    }
    guard let batch = packer?.add(segment) else { return nil }
    return frame(batch)
  }

  /// Emits the last, partial batch.
  public mutating func finish() -> [UInt8]? {
    guard let batch = packer?.finish() else { return nil }
    return frame(batch)
  }

  private mutating func frame(_ batch: SegmentBatch) -> [UInt8] {
    let message = WireMessage.queueSegments(batch)
    let frame = WireFrame(
      flags: [.reliable, .ackValid], session: 1, seq: sequence, ack: 0, type: message.kind.rawValue,
      payload: message.payload())
    sequence &+= 1
    let bytes = frame.encoded()
    wireBytes += bytes.count
    frames += 1
    return bytes
  }
}
