public import HapticRenderer

/// A run of contiguous segments for one channel starting at a board time
/// (the payload of `queue segments` and `replace segments`, docs/protocol.md §6.5).
///
/// Each segment is encoded in ``SegmentPayload``'s compact form: a flags byte, the
/// duration in frames (LEB128), then only the values that change. The first segment of a batch
/// continues from level 0 and 0 Hz, so every batch decodes on its own.
public struct SegmentBatch: Sendable, Hashable {
  /// One segment: the renderer's ``HapticRenderer/Segment``, its `startFrame` counted from the
  /// batch's start (the batch renumbers its segments: 0, then each one's frames on).
  public typealias Segment = HapticRenderer.Segment

  /// Flag bits of a segment's first byte (``SegmentPayload``'s format).
  public typealias Flag = SegmentPayload.Flag

  /// The channel.
  public var channel: UInt8
  /// Board time (ticks) at which the first segment starts.
  public var startTime: UInt32
  /// Bytes per level on the wire: 1 for boards of up to 8 bits, 2 above.
  public var levelBytes: UInt8
  /// The segments, contiguous.
  public var segments: [Segment]

  /// Creates a batch; its segments are renumbered from 0 (they are contiguous).
  public init(channel: UInt8, startTime: UInt32, levelBytes: UInt8, segments: [Segment]) {
    self.channel = channel
    self.startTime = startTime
    self.levelBytes = levelBytes
    var frame = 0
    self.segments = segments.map { segment in
      var placed = segment
      placed.startFrame = frame
      frame += segment.frames
      return placed
    }
  }

  /// Encoded bytes of one segment after `previous` (nil for the first in a batch), in
  /// ``SegmentPayload``'s encoding.
  static func encode(
    _ segment: Segment, after previous: Segment?, levelBytes: UInt8, into out: inout WireWriter
  ) {
    SegmentPayload.encode(segment, after: previous, levelBytes: Int(levelBytes), into: &out.bytes)
  }

  func encode(into out: inout WireWriter) {
    out.u8(channel)
    out.u32(startTime)
    out.u8(levelBytes)
    out.u8(UInt8(clamping: segments.count))
    var previous: Segment?
    for segment in segments.prefix(255) {
      Self.encode(segment, after: previous, levelBytes: levelBytes, into: &out)
      previous = segment
    }
  }

  static func decode(from reader: inout WireReader) throws(WireError) -> SegmentBatch {
    let channel = try reader.u8()
    let start = try reader.u32()
    let levelBytes = try reader.u8()
    guard levelBytes == 1 || levelBytes == 2 else {
      throw WireError(.badPayload, "level width \(levelBytes) is not 1 or 2 bytes")
    }
    let count = Int(try reader.u8())
    var segments: [Segment] = []
    segments.reserveCapacity(count)
    var level = 0
    var hz = 0
    for _ in 0..<count {
      let flags = try reader.u8()
      var duration: UInt32 = 0
      var shift: UInt32 = 0
      while true {
        let byte = try reader.u8()
        guard shift < 28 else { throw WireError(.badPayload, "segment duration is too long") }
        duration |= UInt32(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 { break }
      }
      guard duration > 0 else { throw WireError(.badPayload, "a segment lasts 0 frames") }
      func readLevel() throws(WireError) -> Int {
        levelBytes > 1 ? Int(try reader.i16()) : Int(try reader.i8())
      }
      let startLevel = flags & Flag.levelJump != 0 ? try readLevel() : level
      let endLevel = flags & Flag.levelRamp != 0 ? try readLevel() : startLevel
      let startHz = flags & Flag.frequencyJump != 0 ? Int(try reader.u16()) : hz
      let endHz = flags & Flag.frequencyRamp != 0 ? Int(try reader.u16()) : startHz
      segments.append(
        Segment(frames: Int(duration), startLevel: startLevel, endLevel: endLevel, startFrequency: startHz, endFrequency: endHz))
      level = endLevel
      hz = endHz
    }
    return SegmentBatch(channel: channel, startTime: start, levelBytes: levelBytes, segments: segments)
  }
}

extension HapticRenderer.Segment {
  /// A segment of a batch (its place, `startFrame`, is given by the batch).
  public init(frames: Int, startLevel: Int, endLevel: Int, startFrequency: Int, endFrequency: Int) {
    self.init(
      startFrame: 0, frames: frames, startLevel: startLevel, endLevel: endLevel, startFrequency: startFrequency,
      endFrequency: endFrequency)
  }
}
