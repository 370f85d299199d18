#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// specialised loop). Frames lying wholly inside `bytes` are decoded in place; only a frame
  /// split across calls is gathered in the decoder's buffer.
  public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> [WireFrame] {
    var frames: [WireFrame] = []
    var runStart = 0
    var index = 0
    let count = bytes.count
    guard let base = bytes.baseAddress else { return frames }
    while index < count {
      // Find the next delimiter (memchr scans far faster than a byte loop).
      guard let found = memchr(base + index, 0, count - index) else {
        index = count
        break
      }
      index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      // A delimiter at `index`: the run is bytes[runStart..<index] after what is buffered.
      let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
      if buffer.isEmpty && !overflow {
        if !run.isEmpty { finishRun(run, into: &frames) }
      } else {
        gather(run)
        if !overflow {
          buffer.withUnsafeBufferPointer { finishRun($0, into: &frames) }
        } else {
          reject(buffered: buffer.count)
        }
        buffer.removeAll(keepingCapacity: true)
        overflow = false
      }
      index += 1
      runStart = index
    }
    gather(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    return frames
  }

  /// Keeps the bytes of a frame still in progress (dropping what exceeds a frame's size).
  private mutating func gather(_ run: UnsafeBufferPointer<UInt8>) {
    let room = WireFrame.maxEncodedSize - buffer.count
    if run.count <= room {
      buffer.append(contentsOf: run)
    } else {
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: run[..<max(room, 0)]))
      overflow = true
      counters.discardedBytes += run.count - max(room, 0)
    }
  }

  /// Decodes one complete run (COBS, size and CRC checks).
  private mutating func finishRun(_ run: UnsafeBufferPointer<UInt8>, into frames: inout [WireFrame]) {
    guard run.count <= WireFrame.maxEncodedSize else {
      reject(buffered: run.count)
      return
    }
    // COBS into a stack buffer, then the frame (its payload is the only allocation).
    let frame = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: WireFrame.maxEncodedSize) { scratch -> WireFrame? in
      guard let written = COBS.decode(run, into: scratch) else { return nil }
      return try? WireFrame.parse(raw: UnsafeBufferPointer(rebasing: scratch[..<written]))
    }
    if let frame {
      frames.append(frame)
      counters.frames += 1
    } else {
      reject(buffered: run.count)
    }
  }

  private mutating func reject(buffered: Int) {
    counters.rejected += 1
    counters.discardedBytes += buffered
  }
}
