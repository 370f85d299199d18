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
/// * host → board: a byte written at time w (read from the pty at r without a ``LineWrites``)
///   arrives at `max(w, previous arrival) + byteTime`; ``readTimed(timeout:)`` returns each frame at once
///   with the arrival of its last byte (the 0x00 delimiter), and the served board takes it then
///   in simulated time (a late wake-up of the server's thread does not make it late: this
///   machine's timer sleeps overshoot by milliseconds now and then, docs/semantics.md §13.1).
/// * board → host: a write at time w is handed to the pty at `max(w, line free) + n·byteTime`
///   by a writer thread, so the host sees the last byte when a UART would have sent it;
///   ``write(_:)`` itself returns at once (as a UART driver's buffer would).
///
/// The writer's sleeps use usleep (Linux timer slack, ~50 µs).
final class PacedTransport: TimedByteTransport, @unchecked Sendable {
  let inner: any ByteTransport
  /// Seconds per byte on the line.
  let byteTime: Double
  private let clock = ContinuousClock()
  // Inbound (only the board's reader thread touches these).
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
    /// Seconds since ``origin`` when its last byte reached the board.
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

  /// When the host wrote what this side reads (nil: when it is read).
  let line: LineWrites?

  /// Paces `inner` at `bitRate` bits per second, `bitsPerByte` bits per byte (8N1: 10); with
  /// `line`, each byte goes onto the line when the host wrote it.
  init(_ inner: any ByteTransport, bitRate: Double, bitsPerByte: Double = 10, line: LineWrites? = nil) {
    self.inner = inner
    self.line = line
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

  func readTimed(timeout: Double) throws(TransportError) -> [TimedBytes] {
    let received = try inner.read(timeout: timeout)
    guard !received.isEmpty else { return [] }
    let arrived = now()
    let written = line?.take(received.count) ?? Array(repeating: nil, count: received.count)
    bytesIn += received.count
    // A piece per frame (through its 0x00 delimiter), arriving with its last byte: the board
    // cannot act on part of a frame, and the first of two frames written together lands first.
    var pieces: [TimedBytes] = []
    var piece: [UInt8] = []
    for (byte, write) in zip(received, written) {
      inboundFree = max(write.map { ($0 - origin).seconds } ?? arrived, inboundFree) + byteTime
      piece.append(byte)
      if byte == 0 {
        pieces.append(TimedBytes(piece, arrival: origin + .seconds(inboundFree)))
        noteReplaces(piece, at: inboundFree)
        piece = []
      }
    }
    if !piece.isEmpty { pieces.append(TimedBytes(piece, arrival: origin + .seconds(inboundFree))) }
    return pieces
  }

  /// Reads as ``readTimed(timeout:)`` and returns once the last piece has landed.
  func read(timeout: Double) throws(TransportError) -> [UInt8] {
    let pieces = try readTimed(timeout: timeout)
    if let last = pieces.last { pause((last.arrival - clock.now).seconds) }
    return pieces.flatMap(\.bytes)
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
