import Foundation
import HapticWire
import Testing

/// Issue 31 points 1, 2, 3 and 5 on every board (docs/protocol.md v1.1): a status covers every
/// channel; a board whose send window is full holds a request instead of NAKing; a recovery
/// leaves the board's round-trip estimate where the line is; a board's first-contact resend
/// follows the host's session.
extension ConformanceTests {
  /// The board's link-control frames (`ack` messages) in `frames`: NAKs, holds, polls.
  static func control(_ frames: ArraySlice<(time: Double, frame: WireFrame)>, _ flag: WireFrame.Flags)
    -> [(time: Double, frame: WireFrame)]
  {
    frames.filter { $0.frame.type == WireMessage.Kind.ack.rawValue && $0.frame.flags.contains(flag) }
  }

  @Test("Status reports every channel, 9 + 8 bytes a channel (point 1)", arguments: targets)
  func statusOfEveryChannel(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let capabilities = try #require(try host.identify())
      let count = capabilities.channels.count
      let ticks = UInt32(capabilities.clockFrequency / 1000)
      let now = try #require(try host.status()).boardTime
      for channel in 0..<count {
        try host.send(.queueSegments(SegmentBatch(
          channel: UInt8(channel), startTime: now &+ 20 &* ticks, levelBytes: 1,
          segments: [Self.held(40 + channel, frames: 1_000)])))
      }
      usleep(50_000)  // playing; within the 100 ms watchdog
      let mark = host.frames.count
      let status = try #require(try host.status())
      try host.send(.stop(channels: 0xFF))
      let raw = try #require(host.frames[mark...].last { $0.frame.type == WireMessage.Kind.status.rawValue })
      #expect(raw.frame.payload.count == 9 + 8 * count, "\(count) channels: \(raw.frame.payload.count) bytes")
      #expect(status.channels.count == count)
      for (channel, report) in status.channels.enumerated() {
        #expect(report.level == 40 + channel && report.queueFill >= 1, "channel \(channel): \(report)")
      }
    }
  }

  @Test("A full board window holds a request: no NAK, every request answered once (point 2)", arguments: targets)
  func fullWindowHolds(_ target: Target) throws {
    try Self.withBoard(target) { host in
      _ = try #require(try host.identify())
      _ = try #require(try host.status())
      let mark = host.frames.count
      let answered = host.received.count
      // Ten requests at once (the host's window lets eight go), their answers read but not
      // acknowledged for 300 ms: a Uno (4 replies in flight at most) must hold the fifth.
      host.answering = false
      for _ in 0..<10 { try host.send(.statusRequest) }
      _ = try host.wait(timeout: 0.3) { _ in false }
      let silent = host.frames[mark...]
      let naks = Self.control(silent, .nak), holds = Self.control(silent, .hold)
      host.answering = true
      var statuses = 0
      let deadline = emulatorMonotonicSeconds() + 3
      while statuses < 10 && emulatorMonotonicSeconds() < deadline {
        _ = try host.wait(timeout: 0.05) { _ in false }
        statuses = host.received[answered...].filter { if case .status = $0.message { true } else { false } }.count
      }
      print("\(target): \(naks.count) NAKs, \(holds.count) holds while not acknowledging; \(statuses) of 10 answered; \(host.linkStatistics)")
      #expect(naks.isEmpty, "\(naks.count) NAKs while the board's window was full")
      if target.isEmulated {
        #expect(!holds.isEmpty, "the Uno's window of 4 was full: it must hold")
      }
      #expect(statuses == 10, "\(statuses) of 10 requests answered")
      #expect(host.linkStatistics.fastRecoveries <= 3, "\(host.linkStatistics)")
    }
  }

  @Test("After a recovery the board polls within its round trip, not a recovery's length (point 3)", arguments: targets)
  func roundTripAfterRecovery(_ target: Target) throws {
    try Self.withBoard(target) { host in
      _ = try #require(try host.identify())
      try host.send(.setWatchdog(milliseconds: 5_000))
      _ = try #require(try host.status())
      // Four answers left unacknowledged for a second: the board times out and resends; a
      // board with a congestion window holds the later ones back. Then all acknowledged.
      host.answering = false
      for _ in 0..<4 { try host.send(.statusRequest) }
      _ = try host.wait(timeout: 1.0) { _ in false }
      host.answering = true
      for _ in 0..<5 { _ = try #require(try host.status()) }  // five clean exchanges
      // One answer left unacknowledged: the board's poll for it comes after its poll timeout.
      host.answering = false
      let mark = host.frames.count
      try host.send(.statusRequest)
      _ = try host.wait(timeout: 1.0) { _ in false }
      host.answering = true
      let after = host.frames[mark...]
      let answer = try #require(after.first { $0.frame.type == WireMessage.Kind.status.rawValue })
      let poll = try #require(Self.control(after, .poll).first { $0.time >= answer.time }, "no poll within 1 s")
      print("\(target): polled \(String(format: "%.1f", (poll.time - answer.time) * 1000)) ms after its answer")
      #expect(poll.time - answer.time < 0.05, "polled \(Int((poll.time - answer.time) * 1000)) ms after its answer")
    }
  }

  @Test("First contact: the board's unheard reset notice is resent at once, following the host's session (point 5)", arguments: targets)
  func firstContactFollowsTheHost(_ target: Target) throws {
    try Self.withBoard(target) { host in
      try host.discardInput(for: 0.5)  // the reset notice went out to no one (an RTO and more ago)
      let mark = host.frames.count
      _ = try #require(try host.identify())
      let after = host.frames[mark...]
      let capabilities = try #require(after.firstIndex { $0.frame.type == WireMessage.Kind.capabilities.rawValue })
      let notices = after[..<capabilities].filter { $0.frame.type == WireMessage.Kind.resetNotice.rawValue }
      // `ack` is the SYN's number, or one past it when the board took the SYN's frame before
      // building the resend (the Unos build frames as they send them; §4.1).
      let following: Set<UInt8> = [host.firstSequence, host.firstSequence &+ 1]
      #expect(
        notices.contains { $0.frame.flags.contains(.ackValid) && following.contains($0.frame.ack) },
        "before its answer, a reset notice with ACK_VALID and ack \(following.sorted()): \(notices.map(\.frame))")
    }
  }
}
