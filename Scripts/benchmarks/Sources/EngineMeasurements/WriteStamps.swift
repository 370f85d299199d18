import Foundation
import HapticTransport
import HapticWire

/// The host's side of the pseudo-terminal, noting when each `replace segments` frame was written
/// (its `write` returned): splits a change's way to the board into the host's share (call →
/// written: rendering, the board's order, the link) and the line's (written → received: the
/// kernel, the served board's wake-up, the line's serialization).
final class WriteStampTransport: ByteTransport, @unchecked Sendable {
  // Unchecked: `decoder` and `stamps` only under `lock`; the rest are lets.
  let inner: any ByteTransport
  private let lock = NSLock()
  private var decoder = FrameDecoder()
  private var stamps: [(time: ContinuousClock.Instant, seq: UInt8)] = []

  /// Every write's bytes and when it returned, for the line's model on the board's side.
  let line: LineWrites

  init(_ inner: any ByteTransport, line: LineWrites) {
    self.inner = inner
    self.line = line
  }

  var name: String { inner.name }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    try inner.write(bytes)
    let written = ContinuousClock.now
    line.note(bytes.count, at: written)
    lock.withLock {
      for frame in decoder.feed(bytes) where frame.type == WireMessage.Kind.replaceSegments.rawValue {
        stamps.append((written, frame.seq))
      }
    }
  }

  func read(timeout: Double) throws(TransportError) -> [UInt8] { try inner.read(timeout: timeout) }
  func close() { inner.close() }

  /// Every `replace segments` frame written so far: when its write returned, and its seq.
  var replaceWrites: [(time: ContinuousClock.Instant, seq: UInt8)] { lock.withLock { stamps } }
}

/// When the host's writes went onto the line: the paced board side starts each byte's
/// serialization when it was written, not when the served board's thread woke to read it (on
/// this 2-core virtual machine a woken thread now and then runs milliseconds late, and a real
/// board's receive interrupt takes a byte as it lands).
final class LineWrites: @unchecked Sendable {
  // Unchecked: `writes` only under `lock`.
  private let lock = NSLock()
  private var writes: [(time: ContinuousClock.Instant, count: Int)] = []
  private var head = 0
  /// Bytes read before their write was noted (they took their read time).
  private var unnoted = 0

  /// The host wrote `count` bytes; its write returned at `time`.
  func note(_ count: Int, at time: ContinuousClock.Instant) {
    lock.withLock {
      let early = min(unnoted, count)
      unnoted -= early
      if count > early { writes.append((time, count - early)) }
    }
  }

  /// When each of the next `count` bytes read on the board's side was written, in order; nil
  /// for a byte whose write has not been noted yet (read before the writer's note: the caller
  /// takes its read time, later than its write).
  func take(_ count: Int) -> [ContinuousClock.Instant?] {
    lock.withLock {
      var times: [ContinuousClock.Instant?] = []
      times.reserveCapacity(count)
      while times.count < count && head < writes.count {
        let take = min(writes[head].count, count - times.count)
        times += Array(repeating: writes[head].time, count: take)
        writes[head].count -= take
        if writes[head].count == 0 { head += 1 }
      }
      if head > 4096 {
        writes.removeFirst(head)
        head = 0
      }
      unnoted += count - times.count
      return times + Array(repeating: nil, count: count - times.count)
    }
  }
}
