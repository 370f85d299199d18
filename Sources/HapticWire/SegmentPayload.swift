public import HapticRenderer

/// The compact byte form of a segment stream: the segment encoding of the wire protocol's
/// `queue segments` and `replace segments` messages (docs/protocol.md §6.5), also used to size
/// what the link must carry (`hapticctl render`'s `segment_bytes`, through ``SegmentFramer``).
///
/// Each segment is a flags byte, the duration in frames as an unsigned LEB128 varint, then only
/// the values that change: the start level when it differs from the previous segment's end
/// level, the end level when the level ramps, and likewise the start and end frequency (16-bit,
/// little-endian, Hz). Levels take one byte up to 8-bit boards, two bytes above. A board
/// expanding the stream carries the previous end values forward.
public enum SegmentPayload {
  /// Flag bits of the first byte.
  public enum Flag {
    /// A start level follows (the level jumps).
    public static let levelJump: UInt8 = 1 << 0
    /// An end level follows (the level ramps).
    public static let levelRamp: UInt8 = 1 << 1
    /// A start frequency follows.
    public static let frequencyJump: UInt8 = 1 << 2
    /// An end frequency follows.
    public static let frequencyRamp: UInt8 = 1 << 3
    /// The segment reverse-drives (brakes).
    public static let brake: UInt8 = 1 << 4
  }

  /// Appends the bytes of `segment` to `out`, given the segment before it (if any).
  public static func encode(
    _ segment: Segment, after previous: Segment?, levelBytes: Int, into out: inout [UInt8]
  ) {
    var flags: UInt8 = 0
    let previousLevel = previous?.endLevel ?? 0
    let previousHz = previous?.endFrequency ?? 0
    if segment.startLevel != previousLevel { flags |= Flag.levelJump }
    if segment.endLevel != segment.startLevel { flags |= Flag.levelRamp }
    if segment.startFrequency != previousHz { flags |= Flag.frequencyJump }
    if segment.endFrequency != segment.startFrequency { flags |= Flag.frequencyRamp }
    if segment.isBrake { flags |= Flag.brake }
    out.append(flags)
    var duration = UInt64(segment.frames)
    repeat {
      let byte = UInt8(duration & 0x7F)
      duration >>= 7
      out.append(duration == 0 ? byte : byte | 0x80)
    } while duration != 0
    if flags & Flag.levelJump != 0 { appendLevel(segment.startLevel, levelBytes, &out) }
    if flags & Flag.levelRamp != 0 { appendLevel(segment.endLevel, levelBytes, &out) }
    if flags & Flag.frequencyJump != 0 { appendHz(segment.startFrequency, &out) }
    if flags & Flag.frequencyRamp != 0 { appendHz(segment.endFrequency, &out) }
  }

  @inline(__always)
  private static func appendLevel(_ value: Int, _ levelBytes: Int, _ out: inout [UInt8]) {
    if levelBytes > 1 {
      let bits = UInt16(bitPattern: Int16(clamping: value))
      out.append(UInt8(truncatingIfNeeded: bits))
      out.append(UInt8(truncatingIfNeeded: bits >> 8))
    } else {
      out.append(UInt8(bitPattern: Int8(clamping: value)))
    }
  }

  @inline(__always)
  private static func appendHz(_ value: Int, _ out: inout [UInt8]) {
    let bits = UInt16(clamping: value)
    out.append(UInt8(truncatingIfNeeded: bits))
    out.append(UInt8(truncatingIfNeeded: bits >> 8))
  }

  /// The encoded size of `segment` in bytes (what ``encode(_:after:levelBytes:into:)``
  /// appends), computed without encoding.
  public static func size(_ segment: Segment, after previous: Segment?, levelBytes: Int) -> Int {
    var size = 1
    var duration = segment.frames >> 7
    size += 1
    while duration > 0 {
      size += 1
      duration >>= 7
    }
    if segment.startLevel != (previous?.endLevel ?? 0) { size += levelBytes }
    if segment.endLevel != segment.startLevel { size += levelBytes }
    if segment.startFrequency != (previous?.endFrequency ?? 0) { size += 2 }
    if segment.endFrequency != segment.startFrequency { size += 2 }
    return size
  }

  /// The encoded size of a contiguous segment stream, each segment after the one before it (no
  /// batch headers): what the segments alone cost on the wire.
  public static func size(of segments: some Sequence<Segment>, levelBytes: Int) -> Int {
    var total = 0
    var previous: Segment?
    for segment in segments {
      total += size(segment, after: previous, levelBytes: levelBytes)
      previous = segment
    }
    return total
  }
}
