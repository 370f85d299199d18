import Benchmark
import Foundation
import HapticCore
import HapticWire


/// The synthetic wire stream: 10,000 `queue segments` messages, each with 4–12 segments, and
/// their frames encoded back to back. Built once per process, outside the measured blocks.
struct WireStream: Sendable {
  /// Messages in the stream.
  static let messageCount = 10_000

  /// The messages, in sending order.
  var messages: [WireMessage]
  /// Every message as a frame (COBS + 0x00 delimiter), concatenated.
  var encoded: [UInt8]
  /// Segments over all messages.
  var segments: Int
  /// Payload bytes over all messages (before framing and COBS).
  var payloadBytes: Int

  /// The frame that carries message `index`: reliable with a valid ack, sequence numbers
  /// counting up mod 256, as a host link sends them.
  @inline(__always)
  static func frame(_ message: WireMessage, index: Int) -> WireFrame {
    WireFrame(
      flags: [.reliable, .ackValid], session: 0x5A, seq: UInt8(truncatingIfNeeded: index),
      ack: UInt8(truncatingIfNeeded: index / 3), type: message.kind.rawValue, payload: message.payload())
  }

  /// One batch as a renderer would send it on a board like `sim-lra` (1 kHz frames, levels
  /// ±127, 80–300 Hz): short transient bursts, medium ramps, some long holds (2-byte durations),
  /// the odd brake pulse; most segments continue from the previous one, some jump. Every 5th
  /// message is for a 16-bit board (2-byte levels), every 4th for an amplitude-only board (0 Hz).
  static func batch(_ index: Int, startTime: UInt32, rng: inout SplitMix) -> SegmentBatch {
    let wide = index % 5 == 4
    let levelScale = wide ? 256 : 1
    let maxLevel = wide ? 32_767 : 127
    let hasFrequency = index % 4 != 3
    let count = rng.next(in: 4...12)
    var segments: [SegmentBatch.Segment] = []
    segments.reserveCapacity(count)
    var level = 0
    var hz = hasFrequency ? 170 : 0
    for _ in 0..<count {
      let kind = rng.next(in: 0...11)
      let frames: Int
      var startLevel = level
      var endLevel: Int
      if kind == 0 {
        // Brake: a short reversed pulse, then the drive continues from 0.
        frames = rng.next(in: 2...5)
        startLevel = -rng.next(in: 40...127) * levelScale
        endLevel = startLevel
      } else {
        frames =
          kind <= 4 ? rng.next(in: 1...8) : kind <= 9 ? rng.next(in: 10...60) : rng.next(in: 100...2_000)
        if rng.next(in: 0...4) < 2 { startLevel = rng.next(in: 0...127) * levelScale }
        endLevel = rng.next(in: 0...1) == 0 ? startLevel : rng.next(in: 0...127) * levelScale
      }
      startLevel = min(startLevel, maxLevel)
      endLevel = min(endLevel, maxLevel)
      var startHz = hz
      var endHz = hz
      if hasFrequency {
        if rng.next(in: 0...3) == 0 { startHz = rng.next(in: 80...300) }
        endHz = rng.next(in: 0...2) == 0 ? rng.next(in: 80...300) : startHz
      }
      segments.append(
        .init(frames: frames, startLevel: startLevel, endLevel: endLevel, startFrequency: startHz, endFrequency: endHz))
      level = kind == 0 ? 0 : endLevel
      hz = endHz
    }
    return SegmentBatch(
      channel: UInt8(index % 2), startTime: startTime, levelBytes: wide ? 2 : 1, segments: segments)
  }

  /// Builds the stream, checks that it decodes back to the same messages with nothing rejected,
  /// and reports its size to standard error.
  static func make() -> WireStream {
    var rng = SplitMix(seed: 0x6861_7074_6963)
    var times: [UInt32] = [1_000_000, 1_000_000]  // per channel, 1 MHz ticks
    var messages: [WireMessage] = []
    messages.reserveCapacity(messageCount)
    var segments = 0
    for i in 0..<messageCount {
      let channel = i % 2
      let batch = Self.batch(i, startTime: times[channel], rng: &rng)
      times[channel] &+= UInt32(batch.segments.reduce(0) { $0 + $1.frames } * 1_000)
      segments += batch.segments.count
      messages.append(.queueSegments(batch))
    }
    var encoded: [UInt8] = []
    var payloadBytes = 0
    for (i, message) in messages.enumerated() {
      let frame = Self.frame(message, index: i)
      precondition(frame.payload.count <= WireFrame.maxPayload, "message \(i) payload too long")
      payloadBytes += frame.payload.count
      encoded += frame.encoded()
    }
    let stream = WireStream(messages: messages, encoded: encoded, segments: segments, payloadBytes: payloadBytes)

    // Consistency check (outside timing): the stream decodes back to the same messages.
    var decoder = FrameDecoder()
    var decoded: [WireMessage] = []
    var start = 0
    while start < encoded.count {
      let end = min(start + 64, encoded.count)
      for frame in decoder.feed(encoded[start..<end]) {
        if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) {
          decoded.append(message)
        }
      }
      start = end
    }
    guard decoded == messages, decoder.counters.rejected == 0 else {
      fatalError(
        "wire stream does not round-trip: \(decoded.count) of \(messages.count) messages decoded, "
          + "\(decoder.counters.rejected) frames rejected")
    }

    report(
      "[wire] \(messageCount) queue-segments messages, \(segments) segments, "
        + "\(payloadBytes) payload bytes, \(encoded.count) encoded bytes "
        + String(
          format: "(%.1f bytes/frame, framing + COBS %.1f %% over payload); ",
          Double(encoded.count) / Double(messageCount),
          100 * Double(encoded.count - payloadBytes) / Double(payloadBytes))
        + String(
          format: "MB/s = throughput (iterations/s) × %.6f, or %.6f / p50 wall clock in s",
          Double(encoded.count) / 1e6, Double(encoded.count) / 1e6))
    return stream
  }

  /// The one stream of this process (built on first use).
  static let shared = WireStream.make()
}

/// Writes one line to standard error (the runner keeps standard output for its tables).
func report(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Feeds `bytes` to a fresh decoder in 64-byte chunks (a USB CDC packet) and decodes every
/// frame's message; returns a checksum of what came out.
@inline(__always)
func decodeStream(_ bytes: [UInt8]) -> Int {
  var decoder = FrameDecoder()
  var checksum = 0
  var start = 0
  while start < bytes.count {
    let end = min(start + 64, bytes.count)
    for frame in decoder.feed(bytes[start..<end]) {
      if case .queueSegments(let batch)? = try? WireMessage.decode(type: frame.type, payload: frame.payload) {
        checksum &+= batch.segments.count
      }
    }
    start = end
  }
  return checksum &+ decoder.counters.rejected
}

/// The wire protocol benchmarks. One iteration handles the whole 10,000-message stream, so
/// throughput (iterations/s) × the stream's size in MB (printed to standard error) is MB/s.
/// Goal (release build): encode + decode at least 20 MB/s.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
    timeUnits: .microseconds)

  // Message → payload → frame (header + CRC) → COBS + delimiter, for every message.
  Benchmark(
    "Encode frames",
    closure: { (benchmark: Benchmark, messages: [WireMessage]) in
      for _ in benchmark.scaledIterations {
        var bytes = 0
        for (i, message) in messages.enumerated() {
          let encoded = WireStream.frame(message, index: i).encoded()
          bytes &+= encoded.count
          blackHole(encoded)
        }
        blackHole(bytes)
      }
    },
    setup: { WireStream.shared.messages })

  // The encoded stream in 64-byte chunks → FrameDecoder (COBS, CRC, header) → WireMessage.decode.
  Benchmark(
    "Decode frames",
    closure: { (benchmark: Benchmark, stream: [UInt8]) in
      for _ in benchmark.scaledIterations { blackHole(decodeStream(stream)) }
    },
    setup: { WireStream.shared.encoded })

  // Both: encode every message into one buffer, then decode that buffer as above.
  Benchmark(
    "Encode + decode",
    closure: { (benchmark: Benchmark, messages: [WireMessage]) in
      let capacity = WireStream.shared.encoded.count
      for _ in benchmark.scaledIterations {
        var stream: [UInt8] = []
        stream.reserveCapacity(capacity)
        for (i, message) in messages.enumerated() {
          stream.append(contentsOf: WireStream.frame(message, index: i).encoded())
        }
        blackHole(decodeStream(stream))
      }
    },
    setup: { WireStream.shared.messages })
}
