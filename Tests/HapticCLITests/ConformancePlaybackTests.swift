import Foundation
import HapticWire
import Testing

/// Issue 31 point 12, docs/protocol.md §6.5 v1.1, on every board: a `queue` batch that starts
/// inside drive already queued cuts it there as `replace` does; a gap between batches plays 0
/// and is no underrun; the levels decide, not the brake flag.
extension ConformanceTests {
  /// Board ticks per millisecond, the board time now, and a batch helper, with a watchdog long
  /// enough for a host that sends no heartbeats.
  static func playbackSetup(_ host: EmulatorHost) throws -> (ticks: UInt32, now: UInt32, signed: Bool) {
    let capabilities = try #require(try host.identify())
    try host.send(.setWatchdog(milliseconds: 2_000))
    let now = try #require(try host.status()).boardTime
    return (UInt32(capabilities.clockFrequency / 1000), now, capabilities.features.contains(.signedLevels))
  }

  /// The level driven `at` (host seconds from `start`), read from a status sent then.
  static func level(_ host: EmulatorHost, at seconds: Double, from start: Double) throws -> Int? {
    let wait = start + seconds - emulatorMonotonicSeconds()
    if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
    return try host.status().flatMap { $0.channels.first.map { Int($0.level) } }
  }

  @Test("A queue batch inside queued drive cuts it there; a gap plays 0 and is no underrun (point 12)", arguments: targets)
  func queueOverlapAndGap(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let (ticks, now, _) = try Self.playbackSetup(host)
      let start = emulatorMonotonicSeconds()
      let t0 = now &+ 100 &* ticks  // 100 ms ahead: time for every request to arrive
      // A: 50 for 800 ms. B, queued at +200 ms: 30 for 200 ms, then 0 — it cuts A there.
      try host.send(.queueSegments(SegmentBatch(channel: 0, startTime: t0, levelBytes: 1, segments: [Self.held(50, frames: 800)])))
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: t0 &+ 200 &* ticks, levelBytes: 1, segments: [Self.held(30, frames: 200), Self.held(0, frames: 1)])))
      // C at +600 ms: 40 for 100 ms, then a 200 ms gap, then D: 40 for 100 ms and 0.
      try host.send(.queueSegments(SegmentBatch(channel: 0, startTime: t0 &+ 600 &* ticks, levelBytes: 1, segments: [Self.held(40, frames: 100)])))
      try host.send(.queueSegments(SegmentBatch(
        channel: 0, startTime: t0 &+ 900 &* ticks, levelBytes: 1, segments: [Self.held(40, frames: 100), Self.held(0, frames: 1)])))
      let before = try #require(try host.status()).channels[0].underruns
      // The host's clock stands about where the board's `now` was read: times from `start`,
      // each in the middle of its piece (±50 ms).
      #expect(try Self.level(host, at: 0.200, from: start) == 50, "A plays before B's start")
      #expect(try Self.level(host, at: 0.400, from: start) == 30, "B cut A at its start")
      #expect(try Self.level(host, at: 0.600, from: start) == 0, "B ended at 0; A's rest is gone")
      #expect(try Self.level(host, at: 0.750, from: start) == 40, "C plays")
      #expect(try Self.level(host, at: 0.900, from: start) == 0, "the gap between C and D plays 0")
      #expect(try Self.level(host, at: 1.050, from: start) == 40, "D plays")
      _ = try Self.level(host, at: 1.200, from: start)
      let end = try #require(try host.status())
      #expect(end.channels[0].level == 0 && end.channels[0].queueFill == 0, "\(end)")
      #expect(end.channels[0].underruns == before, "no underrun: the gap was asked for, B and D end at 0")
      #expect(end.channels[0].lateSegments == 0, "\(end)")
    }
  }

  @Test("The levels decide, not the brake flag (point 12)", arguments: targets)
  func brakeFlagIsIgnored(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let (ticks, now, signed) = try Self.playbackSetup(host)
      let start = emulatorMonotonicSeconds()
      let t0 = now &+ 100 &* ticks
      // A negative level without the flag, then a positive one with it (flags at payload[7]:
      // channel, startTime, levelBytes, count come first).
      var reverse = WireMessage.queueSegments(SegmentBatch(
        channel: 0, startTime: t0, levelBytes: 1, segments: [Self.held(-40, frames: 100)])).payload()
      #expect(reverse[7] & SegmentPayload.Flag.brake != 0, "the encoder flags a negative level")
      reverse[7] &= ~SegmentPayload.Flag.brake
      try host.sendReliable(type: WireMessage.Kind.queueSegments.rawValue, payload: reverse)
      var forward = WireMessage.queueSegments(SegmentBatch(
        channel: 0, startTime: t0 &+ 100 &* ticks, levelBytes: 1, segments: [Self.held(40, frames: 100), Self.held(0, frames: 1)])).payload()
      forward[7] |= SegmentPayload.Flag.brake
      try host.sendReliable(type: WireMessage.Kind.queueSegments.rawValue, payload: forward)
      #expect(try Self.nextError(host, timeout: 0.02) == nil)
      // A board without signed levels clamps a negative level to 0 (§6.5).
      #expect(try Self.level(host, at: 0.150, from: start) == (signed ? -40 : 0), "a negative level without the flag")
      #expect(try Self.level(host, at: 0.250, from: start) == 40, "a positive level with the flag drives forward")
    }
  }
}
