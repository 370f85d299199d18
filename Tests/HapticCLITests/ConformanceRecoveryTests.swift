import Foundation
import HapticWire
import Testing

/// Issue 31's "recovers from a board reset mid-session", on every board (docs/protocol.md §4.1,
/// §6.9 v1.1): a board that resets while it plays sends a reset notice in a new session; the
/// host follows it, finds the board forgot its drive and counters, measures the clock again and
/// plays on it.
extension ConformanceTests {
  @Test("A reset mid-session: a new session and boot count, drive and counters gone, playing resumes on a new clock measurement", arguments: targets)
  func resetMidSession(_ target: Target) throws {
    try Self.withBoard(target, resetAt: 1.5) { host in
      let before = try #require(try host.identify())
      try host.send(.setWatchdog(milliseconds: 2_000))
      let ticks = UInt32(before.clockFrequency / 1000)
      let now = try #require(try host.status()).boardTime
      // Two seconds of drive: the reset comes in the middle of it.
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: now &+ 20 &* ticks, levelBytes: 1, segments: [Self.held(50, frames: 2_000)])))
      #expect(try Self.nextError(host, timeout: 0.05) == nil)
      let notice = try host.wait(timeout: 5) { if case .resetNotice = $0 { return true } else { return false } }
      guard case .resetNotice(let bootCount, _)? = notice?.message else {
        Issue.record("no reset notice within 5 s")
        return
      }
      #expect(bootCount == before.bootCount &+ 1, "boot \(before.bootCount) → \(bootCount)")
      // The host follows the new session: the board answers it at once.
      let after = try #require(try host.identify(timeout: 2), "no answer after the reset")
      #expect(after.bootCount == bootCount && after.watchdogMilliseconds == before.watchdogMilliseconds, "the watchdog is back to its default")
      let status = try #require(try host.status())
      let channel = try #require(status.channels.first)
      #expect(channel.queueFill == 0 && channel.level == 0, "the drive was forgotten: \(status)")
      #expect(channel.underruns == 0 && channel.lateSegments == 0, "the counters restarted: \(status)")
      // Playing resumes on a fresh clock measurement (the Unos' clock restarted at 0), with the
      // watchdog set again (the reset put it back to its default).
      try host.send(.setWatchdog(milliseconds: 2_000))
      let clock = try #require(try host.clockSample(count: 3), "no clock answer after the reset")
      let start = UInt32(truncatingIfNeeded: clock.boardTicks) &+ 50 &* ticks
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: start, levelBytes: 1, segments: [Self.held(30, frames: 200), Self.held(0, frames: 1)])))
      usleep(150_000)  // 50 ms to its start, 100 ms into its 200
      let playing = try #require(try host.status())
      #expect(playing.channels.first?.level == 30 && playing.channels.first?.lateSegments == 0, "\(playing)")
    }
  }
}
