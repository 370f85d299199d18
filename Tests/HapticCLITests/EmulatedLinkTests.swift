import Foundation
import HapticTransport
import HapticWire
import Testing

/// The link against the real firmware (issue 13): the Uno's 64-byte UART buffer must never be
/// overrun by what the host sends (the 322-byte receive window, docs/protocol.md §4.3).
@Suite(
  "Emulated Uno: the link", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct EmulatedLinkTests {
  /// A valid `replace segments` batch of `count` ramps (11 bytes each: 21 fill a frame with 238
  /// payload bytes), all starting at `start`, so each replaces the one before.
  static func batch(start: UInt32, level: Int, count: Int) -> WireMessage {
    let segments = (0..<count).map { index in
      SegmentBatch.Segment(
        frames: 16_000 + index, startLevel: 200 + index % 3, endLevel: level, startFrequency: 100 + index,
        endFrequency: 200 + index)
    }
    return .replaceSegments(SegmentBatch(channel: 0, startTime: start, levelBytes: 2, segments: segments))
  }

  @Test("Eight frames in a burst reach the board whole: no bad frame, no error", arguments: [3, 10, 21])
  func burst(count: Int) throws {
    try EmulatedBoardTests.requireBuilt()
    let emulator = try EmulatorProcess()
    defer { _ = emulator.stop() }
    let host = try EmulatorHost(path: emulator.ptyPath)
    _ = try #require(try host.identify(), "no capabilities")
    let before = try #require(try host.status())
    let resentBefore = host.linkStatistics.retransmissions
    let timeoutsBefore = host.linkStatistics.timeouts
    let start = before.boardTime &+ 2_000_000  // 1 s ahead (2 MHz clock)
    var size = 0
    for index in 0..<8 {
      let message = Self.batch(start: start, level: 10 + index, count: count)
      size = message.payload().count
      try host.send(message)
    }
    // A status request queued behind the burst: answered once all eight were taken, in order
    // (and before the board's 100 ms watchdog could clear the queue).
    let after = try #require(try host.status())
    print("burst of 8 frames of \(size) payload bytes: bad frames \(Int(after.badFrames) - Int(before.badFrames)), "
      + "errors \(host.errorsReceived), resent before the burst \(resentBefore), \(host.linkStatistics)")
    #expect(after.badFrames == before.badFrames, "the board's UART buffer overran")
    #expect(host.errorsReceived.isEmpty)
    // Each batch replaced the one before: the queue holds the last one's segments.
    #expect(after.channels.first?.queueFill == UInt16(count), "all eight arrived, in order")
    // No spurious resend: a frame goes again only after a timeout (an emulator that falls
    // behind real time under load can let the host's RTO run out without any fault of the
    // link). Answers to the host's polls once counted as duplicate acks and resent a good
    // frame in 9 of 30 bursts of 238-byte frames.
    let resent = host.linkStatistics.retransmissions - resentBefore
    let timeouts = host.linkStatistics.timeouts - timeoutsBefore
    #expect(resent == 0 || timeouts > 0, "\(resent) frames resent without a timeout: \(host.linkStatistics)")
    host.transport.close()
    let log = emulator.stop().stderr
    // How close the firmware came to dropping a byte: its 64-byte receive ring's fullest fill.
    let ring = log.range(of: #"ring high-water (\d+)"#, options: .regularExpression).map { String(log[$0]) } ?? "?"
    print("resent during the burst: \(resent) (timeouts \(timeouts)); UART receive \(ring) of 63 bytes")
  }
}
