/// Splits a byte stream into frames at 0x00 delimiters, accepting bytes in chunks of any size.
///
/// Garbage (line noise, a partial frame after a reset) is discarded up to the next delimiter:
/// the decoder resynchronises on every 0x00. Oversized runs are dropped without buffering them.
public struct FrameDecoder: Sendable {
  /// Counters of what was rejected.
  public struct Counters: Sendable, Hashable {
    /// Frames that decoded and passed the CRC.
    public var frames = 0
    /// Runs that were not valid COBS or failed the CRC or size checks.
    public var rejected = 0
    /// Bytes discarded with rejected runs.
    public var discardedBytes = 0
  }

  private var buffer: [UInt8] = []
  private var overflow = false
  /// What has been seen so far.
  public private(set) var counters = Counters()

  /// Creates a decoder.
  public init() {
    buffer.reserveCapacity(WireFrame.maxEncodedSize)
  }

  /// Feeds `bytes`; returns the frames completed by them, in order.
  public mutating func feed(_ bytes: [UInt8]) -> [WireFrame] {
    bytes.withUnsafeBufferPointer { feed($0) }
  }

  /// Feeds a slice of bytes.
  public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [WireFrame] {
    bytes.withUnsafeBufferPointer { feed($0) }
  }

  /// Feeds bytes from a buffer (the non-generic core, so callers in other modules get the
  /// specialised loop).
  public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [WireFrame] {
    var frames: [WireFrame] = []
    for byte in bytes {
      if byte != 0 {
        if buffer.count < WireFrame.maxEncodedSize {
          buffer.append(byte)
        } else {
          overflow = true
          counters.discardedBytes += 1
        }
        continue
      }
      defer {
        buffer.removeAll(keepingCapacity: true)
        overflow = false
      }
      if buffer.isEmpty && !overflow { continue }  // back-to-back delimiters
      guard !overflow, let raw = COBS.decode(buffer) else {
        reject()
        continue
      }
      do {
        frames.append(try WireFrame.parse(raw: raw))
        counters.frames += 1
      } catch {
        reject()
      }
    }
    return frames
  }

  private mutating func reject() {
    counters.rejected += 1
    counters.discardedBytes += buffer.count
  }
}
