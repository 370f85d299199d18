import HapticRenderer
import HapticWire
import Testing

/// A `replace` withdraws the segment batches of its channel from its start on that still wait
/// for window space (docs/protocol.md §8): they would be queued on the board and dropped whole
/// by it. Numbered frames are never withdrawn. On the host's `ReliableLink`, on a virtual clock
/// with a scripted peer.
@Suite("Superseded batches")
struct SupersedingTests {
  static func batch(channel: UInt8, start: UInt32, level: Int = 40) -> SegmentBatch {
    SegmentBatch(
      channel: channel, startTime: start, levelBytes: 1,
      segments: [Segment(frames: 10, startLevel: level, endLevel: level, startFrequency: 0, endFrequency: 0)])
  }

  /// The messages in `bytes` (reliable frames), decoded.
  static func messages(_ bytes: [UInt8]) throws -> [WireMessage] {
    var decoder = FrameDecoder()
    return try decoder.feed(bytes).filter { $0.flags.contains(.reliable) }.map {
      try WireMessage.decode(type: $0.type, payload: $0.payload)
    }
  }

  /// A link whose send window is full: eight status requests unanswered.
  static func fullLink() -> (link: ReliableLink, nextAck: UInt8) {
    var link = LinkRulesTests.heardLink()
    let window = ReliableLink.Configuration().window
    for _ in 0..<window { _ = link.send(.statusRequest, now: 0.001) }
    #expect(link.unacknowledged == window)
    return (link, UInt8(window))
  }

  @Test("A replace withdraws the waiting batches of its channel from its start on, and nothing else")
  func replaceWithdrawsWaitingBatches() throws {
    var (link, acked) = Self.fullLink()
    let waiting: [WireMessage] = [
      .queueSegments(Self.batch(channel: 0, start: 1_000)),  // withdrawn: at the replace's start
      .queueSegments(Self.batch(channel: 1, start: 2_000)),  // another channel: kept
      .queueSegments(Self.batch(channel: 0, start: 500)),  // before the replace's start: kept
      .replaceSegments(Self.batch(channel: 0, start: 3_000)),  // after it: withdrawn
      .stop(channels: 0xFF),  // not a batch: kept
    ]
    for message in waiting { #expect(link.send(message, now: 0.002).isEmpty) }
    let replace = WireMessage.replaceSegments(Self.batch(channel: 0, start: 1_000, level: 90))
    #expect(link.send(replace, now: 0.003).isEmpty)
    #expect(link.statistics.withdrawnSuperseded == 2)
    // The peer takes the status requests: what waited goes out, in order, without the two.
    let output = link.receive([LinkRulesTests.ack(acked)], now: 0.004)
    let sent = try Self.messages(output.bytes)
    #expect(sent == [waiting[1], waiting[2], waiting[4], replace], "\(sent)")
  }

  @Test("A batch already sent is not withdrawn: the peer's sequence counts on it")
  func numberedBatchesStay() throws {
    var link = LinkRulesTests.heardLink()
    let early = WireMessage.queueSegments(Self.batch(channel: 0, start: 5_000))
    #expect(try Self.messages(link.send(early, now: 0.001)) == [early])
    let replace = WireMessage.replaceSegments(Self.batch(channel: 0, start: 1_000))
    #expect(try Self.messages(link.send(replace, now: 0.002)) == [replace])
    #expect(link.statistics.withdrawnSuperseded == 0)
    // Unanswered, both are resent after the timeout, the first one included.
    let resent = try Self.messages(link.poll(now: 0.5).bytes)
    #expect(resent.first == early, "\(resent)")
  }

  @Test("Start times compare across the u32 wrap of the board clock")
  func startsCompareAcrossTheWrap() throws {
    var (link, acked) = Self.fullLink()
    let afterWrap = WireMessage.queueSegments(Self.batch(channel: 0, start: 10))
    let beforeReplace = WireMessage.queueSegments(Self.batch(channel: 0, start: 0xFFFF_0000))
    #expect(link.send(afterWrap, now: 0.002).isEmpty, "the window is full")
    _ = link.send(beforeReplace, now: 0.002)
    let replace = WireMessage.replaceSegments(Self.batch(channel: 0, start: 0xFFFF_FF00))
    _ = link.send(replace, now: 0.003)
    #expect(link.statistics.withdrawnSuperseded == 1)
    let sent = try Self.messages(link.receive([LinkRulesTests.ack(acked)], now: 0.004).bytes)
    #expect(sent == [beforeReplace, replace], "\(sent)")
  }
}
