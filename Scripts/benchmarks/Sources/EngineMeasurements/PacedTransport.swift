import Foundation
import HapticTransport
import HapticWire

#if canImport(Glibc)
  import Glibc
#endif

/// A serial line's pace on a pseudo-terminal, applied on the board's side of the pair.
///
/// A pty delivers bytes at once whatever baud rate was set. This wrapper delays them by their
/// serialization time on a UART line at `bitRate` (10 bits per byte for 8N1: 10 µs per byte at
/// 1 Mbaud), in both directions, each direction a line of its own that is busy while a byte is
/// on it:
///
/// * host → board: a byte read from the pty at time r arrives at
///   `max(r, previous arrival) + byteTime`; ``read(timeout:)`` returns a frame when its last
///   byte (the 0x00 delimiter) has arrived, so the first of two frames written together
///   arrives first and a frame is never handed over before its serialization time.
/// * board → host: a write at time w is handed to the pty at `max(w, line free) + n·byteTime`
///   by a writer thread, so the host sees the last byte when a UART would have sent it;
///   ``write(_:)`` itself returns at once (as a UART driver's buffer would).
///
/// The host's write time is taken as the moment the board side reads it (the server polls the
/// pty, so this is within the poll wake-up). Sleeps use usleep (Linux timer slack, ~50 µs).
final class PacedTransport: ByteTransport, @unchecked Sendable {
  let inner: any ByteTransport
  /// Seconds per byte on the line.
  let byteTime: Double
  private let clock = ContinuousClock()
  // Inbound (only the board's reader thread touches these).
  private var inbound: [(due: Double, byte: UInt8)] = []
  private var inboundHead = 0
  private var inboundFree = 0.0
  // Outbound (guarded by `condition`).
  private let condition = NSCondition()
  private var outbound: [(due: Double, bytes: [UInt8])] = []
  private var outboundFree = 0.0
  private var writeError: TransportError?
  private var closed = false
  private var writer: Thread?
  /// Bytes delayed in each direction.
  private(set) var bytesIn = 0
  private(set) var bytesOut = 0
  /// The monotonic instant at which this transport's times are 0.
  let origin: ContinuousClock.Instant

  /// A `replace segments` frame as it reached the board (for the latency breakdown).
  struct ReplaceArrival: Sendable {
    /// Seconds since ``origin`` when its last byte was delivered to the board.
    var time: Double
    /// Encoded frame size, bytes.
    var bytes: Int
    /// The batch's start time on the board clock (32-bit ticks).
    var startTicks: UInt32
    /// Sequence number (a retransmission repeats it).
    var seq: UInt8
  }
  private var decoder = FrameDecoder()
  private var replaces: [ReplaceArrival] = []
  private let replacesLock = NSLock()
  /// Every `replace segments` frame delivered to the board so far.
  var replaceArrivals: [ReplaceArrival] { replacesLock.withLock { replaces } }

  var name: String { inner.name }

  /// Paces `inner` at `bitRate` bits per second, `bitsPerByte` bits per byte (8N1: 10).
  init(_ inner: any ByteTransport, bitRate: Double, bitsPerByte: Double = 10) {
    self.inner = inner
    byteTime = bitsPerByte / bitRate
    origin = clock.now
    let thread = Thread { [self] in self.runWriter() }
    thread.name = "pace-writer"
    writer = thread
    thread.start()
  }

  private func now() -> Double { (clock.now - origin).seconds }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    guard !bytes.isEmpty else { return }
    let t = now()
    let error: TransportError? = condition.withLock {
      if let writeError { return writeError }
      outboundFree = max(t, outboundFree) + Double(bytes.count) * byteTime
      outbound.append((outboundFree, bytes))
      bytesOut += bytes.count
      condition.signal()
      return nil
    }
    if let error { throw error }
  }

  private func runWriter() {
    while true {
      condition.lock()
      while outbound.isEmpty && !closed { condition.wait() }
      if closed {
        condition.unlock()
        return
      }
      let (due, bytes) = outbound.removeFirst()
      condition.unlock()
      pause(due - now())
      do {
        try inner.write(bytes)
      } catch {
        condition.withLock { writeError = error }
      }
    }
  }

  func read(timeout: Double) throws(TransportError) -> [UInt8] {
    let deadline = now() + timeout
    while true {
      let t = now()
      // Release whole frames (through a 0x00 delimiter) once their last byte is due: the board
      // cannot act on part of a frame, and releasing byte by byte would cost a sleep (with the
      // kernel's timer slack) per byte.
      var release = inboundHead
      var nextDue = Double.infinity
      var index = inboundHead
      while index < inbound.count {
        if inbound[index].byte == 0 {
          if inbound[index].due <= t {
            release = index + 1
          } else {
            nextDue = inbound[index].due
            break
          }
        }
        index += 1
      }
      if release > inboundHead {
        let bytes = inbound[inboundHead..<release].map(\.byte)
        inboundHead = release
        noteReplaces(bytes, at: t)
        if inboundHead > 4096 {
          inbound.removeFirst(inboundHead)
          inboundHead = 0
        }
        return bytes
      }
      let until = min(deadline, nextDue)
      if until <= t { return [] }
      let wait = until - t
      let received: [UInt8]
      if nextDue == .infinity {
        // Nothing complete on the line: wait in poll(), which wakes as soon as bytes come. It
        // counts whole milliseconds (and truncates), so round up; overshooting the caller's
        // timeout by under a millisecond only delays an empty return.
        received = try inner.read(timeout: (wait * 1000).rounded(.up) / 1000)
      } else {
        // A frame is on the line until `nextDue`: anything arriving meanwhile queues behind it
        // (its arrival time is `max(arrival, line free)` = line free), so just look and sleep.
        received = try inner.read(timeout: 0)
        if received.isEmpty { pause(wait) }
      }
      guard !received.isEmpty else { continue }
      let arrived = now()
      bytesIn += received.count
      for byte in received {
        inboundFree = max(arrived, inboundFree) + byteTime
        inbound.append((inboundFree, byte))
      }
    }
  }

  private func noteReplaces(_ bytes: [UInt8], at t: Double) {
    for frame in decoder.feed(bytes) where frame.type == WireMessage.Kind.replaceSegments.rawValue {
      guard case .replaceSegments(let batch)? = try? WireMessage.decode(type: frame.type, payload: frame.payload)
      else { continue }
      let arrival = ReplaceArrival(time: t, bytes: frame.encoded().count, startTicks: batch.startTime, seq: frame.seq)
      replacesLock.withLock { replaces.append(arrival) }
    }
  }

  func close() {
    condition.withLock {
      closed = true
      condition.signal()
    }
    inner.close()
  }
}
