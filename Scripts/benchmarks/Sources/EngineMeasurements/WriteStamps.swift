import Foundation
import HapticTransport
import HapticWire

/// The host's side of the pseudo-terminal, noting when each `replace segments` frame was written
/// (its `write` returned): splits a change's way to the board into the host's share (call →
/// written: rendering, the board's order, the link) and the line's (written → received: the
/// kernel, the pacer, the served board's polling).
final class WriteStampTransport: ByteTransport, @unchecked Sendable {
  // Unchecked: `decoder` and `stamps` only under `lock`; the rest are lets.
  let inner: any ByteTransport
  private let lock = NSLock()
  private var decoder = FrameDecoder()
  private var stamps: [(time: ContinuousClock.Instant, seq: UInt8)] = []

  init(_ inner: any ByteTransport) { self.inner = inner }

  var name: String { inner.name }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    try inner.write(bytes)
    let written = ContinuousClock.now
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
