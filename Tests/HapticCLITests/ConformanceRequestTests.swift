import Foundation
import HapticWire
import Testing

/// Issue 31, point 13: what a board does with requests the spec left to guess, now rules of
/// docs/protocol.md §5 and §6 (v1.1), on every board: a `set watchdog` outside 10–5000 ms and a
/// payload longer than its message's layout are `badPayload` and change nothing; a batch of 0
/// segments is valid and queues nothing.
extension ConformanceTests {
  @Test("Malformed requests (watchdog out of range, trailing bytes, a 0-frame segment, levelBytes 3) are badPayload, not bad frames; batches of 0 segments are valid", arguments: targets)
  func malformedRequests(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let capabilities = try #require(try host.identify())
      let watchdog = capabilities.watchdogMilliseconds
      for milliseconds: UInt16 in [0, 9, 5001, 0xFFFF] {
        try host.send(.setWatchdog(milliseconds: milliseconds))
        #expect(
          try Self.nextError(host) == ProtocolError(code: .badPayload, messageType: 0x10, detail: 0),
          "set watchdog \(milliseconds) ms")
      }
      #expect(try host.identify()?.watchdogMilliseconds == watchdog, "the refused values changed nothing")
      // A known message with a byte more than its layout. (The count before: the emulated Uno
      // may already have one, a frame of the open that its bootloader's start cut.)
      let badBefore = try #require(try host.status()).badFrames
      for (type, payload): (UInt8, [UInt8]) in [(0x07, [0xFF, 0x00]), (0x03, [1, 2, 3]), (0x10, [200, 0, 0]), (0x08, [0])] {
        try host.sendReliable(type: type, payload: payload)
        #expect(
          try Self.nextError(host) == ProtocolError(code: .badPayload, messageType: type, detail: 0),
          "type 0x\(String(type, radix: 16)) with \(payload.count) bytes")
        // A well-framed frame with a bad payload is not a bad frame (§6.8: badFrames counts
        // frames the framing or the CRC rejected).
        #expect(try host.status()?.badFrames == badBefore, "type 0x\(String(type, radix: 16)) with \(payload.count) bytes counted as a bad frame")
      }
      #expect(try host.identify()?.watchdogMilliseconds == watchdog, "a padded set watchdog changed nothing")
      // A segment of 0 frames is malformed, and so is a level width other than 1 or 2.
      let zero = WireMessage.queueSegments(SegmentBatch(
        channel: 0, startTime: 0, levelBytes: 1,
        segments: [Self.held(10, frames: 0)]))
      try host.sendReliable(type: 0x05, payload: zero.payload())
      #expect(try Self.nextError(host) == ProtocolError(code: .badPayload, messageType: 0x05, detail: 0), "a 0-frame segment")
      var wide = WireMessage.queueSegments(SegmentBatch(channel: 0, startTime: 0, levelBytes: 1, segments: [])).payload()
      wide[5] = 3  // levelBytes
      try host.sendReliable(type: 0x05, payload: wide)
      #expect(try Self.nextError(host) == ProtocolError(code: .badPayload, messageType: 0x05, detail: 0), "levelBytes 3")
      // A batch of 0 segments: accepted, nothing queued.
      let now = try #require(try host.status()).boardTime
      try host.send(.queueSegments(SegmentBatch(channel: 0, startTime: now &+ 100_000, levelBytes: 1, segments: [])))
      #expect(try Self.nextError(host, timeout: 0.2) == nil, "an empty batch is valid")
      let status = try #require(try host.status())
      #expect(status.channels.first?.queueFill == 0 && status.channels.first?.lateSegments == 0, "\(status)")
      // A replace of 0 segments cuts: the drive queued from its start on is gone, and the queue
      // runs dry there at a non-zero level: an underrun (every board counts it).
      let ticks = UInt32(capabilities.clockFrequency / 1000)
      try host.send(.setWatchdog(milliseconds: 2_000))  // this host sends no heartbeats
      let start = try #require(try host.status()).boardTime &+ 20 &* ticks
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: start, levelBytes: 1,
        segments: [Self.held(50, frames: 3_000)])))
      try host.send(.replaceSegments(SegmentBatch(channel: 0, startTime: start &+ 300 &* ticks, levelBytes: 1, segments: [])))
      #expect(try Self.nextError(host, timeout: 0.1) == nil, "an empty replace is valid")
      let during = try #require(try host.status())
      #expect(during.channels.first?.level == 50, "driving between the start and the cut: \(during)")
      usleep(300_000)
      let cut = try #require(try host.status())
      #expect(cut.channels.first?.level == 0 && cut.channels.first?.queueFill == 0, "cut at the empty replace: \(cut)")
      #expect(cut.channels.first?.underruns == 1, "the cut counted as one underrun: \(cut)")
    }
  }
}
