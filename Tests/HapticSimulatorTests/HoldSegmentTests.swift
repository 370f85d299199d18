import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

/// Hold segments (docs/protocol.md §8): a replace split over several frames ends every frame but
/// the last with the next frame's first level held to the batch's end, so a later frame lost on
/// the line leaves the board holding, not running dry; with every frame delivered the drive is
/// exactly the batch's.
@Suite("Hold segments of a split replace")
struct HoldSegmentTests {
  static let ticksPerFrame: UInt64 = 1000
  static let startFrame = 100

  /// A replace as the engine renders one after an intensity change: an overdrive ramp, a brake,
  /// then a held level under a slowly moving frequency, long enough for several 32-byte frames.
  static func replacement() -> [Segment] {
    var segments = [
      Segment(startFrame: startFrame, frames: 4, startLevel: 127, endLevel: 90, startFrequency: 170, endFrequency: 170),
      Segment(startFrame: startFrame + 4, frames: 3, startLevel: -60, endLevel: -60, startFrequency: 170, endFrequency: 170),
    ]
    var frame = startFrame + 7
    for n in 0..<24 {
      let level = 40 + (n * 7) % 50
      segments.append(
        Segment(
          startFrame: frame, frames: 5 + n % 4, startLevel: level, endLevel: level + 3, startFrequency: 160 + n,
          endFrequency: 161 + n))
      frame += 5 + n % 4
    }
    return segments
  }

  static func batches(_ segments: [Segment], holds: Bool) -> [(batch: SegmentBatch, replace: Bool)] {
    SegmentBatch.messages(
      for: segments, channel: 0, startFrame: startFrame, levelBytes: 1, ticksPerFrame: ticksPerFrame, replace: true,
      maximumPayload: 32, holds: holds
    ).map { message in
      switch message {
      case .replaceSegments(let batch): return (batch, true)
      case .queueSegments(let batch): return (batch, false)
      default: fatalError("not a segment message: \(message)")
      }
    }
  }

  /// The drive level the segments give at `frame` (0 outside them).
  static func expected(_ segments: [Segment], at frame: Int) -> Int {
    guard let segment = segments.first(where: { frame >= $0.startFrame && frame < $0.startFrame + $0.frames }) else {
      return 0
    }
    return Segment.interpolate(segment.startLevel, segment.endLevel, frame - segment.startFrame, segment.frames)
  }

  /// Plays the messages into a queue that already drives level 30 from frame 50 to the
  /// replacement's end (as the engine's queue reaches its horizon), each message arriving at its
  /// frame in `arrivals` (by default at `startFrame - 5`); returns the level of every frame from
  /// `startFrame - 5` to the end and the queue.
  static func play(
    _ messages: [(batch: SegmentBatch, replace: Bool)], arrivals: [Int: Int] = [:]
  ) -> (levels: [Int: Int], queue: DriveQueue) {
    let end = startFrame + replacement().reduce(0) { $0 + $1.frames }
    var queue = DriveQueue(ticksPerFrame: ticksPerFrame, capacity: 512)
    let old = SegmentBatch(
      channel: 0, startTime: UInt32(50 * ticksPerFrame), levelBytes: 1,
      segments: [SegmentBatch.Segment(frames: end - 50, startLevel: 30, endLevel: 30, startFrequency: 170, endFrequency: 170)])
    _ = queue.enqueue(old, start: 50 * ticksPerFrame, now: 0, replace: false)
    var levels: [Int: Int] = [:]
    var next = 0
    for frame in (startFrame - 5)..<end {
      while next < messages.count && (arrivals[next] ?? startFrame - 5) <= frame {
        let (batch, replace) = messages[next]
        #expect(queue.enqueue(batch, start: UInt64(batch.startTime), now: UInt64(frame) * ticksPerFrame, replace: replace) == nil)
        next += 1
      }
      levels[frame] = queue.drive(at: UInt64(frame) * ticksPerFrame).level
    }
    return (levels, queue)
  }

  @Test("Every frame but the last ends with the next frame's first level held to the batch's end")
  func shape() throws {
    let segments = Self.replacement()
    let end = Self.startFrame + segments.reduce(0) { $0 + $1.frames }
    let messages = Self.batches(segments, holds: true)
    #expect(messages.count >= 3, "the replace needs several 32-byte frames")
    #expect(messages.first?.replace == true && messages.dropFirst().allSatisfy { !$0.replace })
    for (index, message) in messages.enumerated() {
      #expect(WireMessage.queueSegments(message.batch).payload().count <= 32, "frame \(index) keeps to the payload bound")
      guard index + 1 < messages.count else { continue }
      let hold = try #require(message.batch.segments.last)
      let next = messages[index + 1].batch
      let nextFrame = Int(next.startTime) / Int(Self.ticksPerFrame)
      let first = next.segments[0]
      #expect(hold.startLevel == max(first.startLevel, 0) && hold.endLevel == hold.startLevel)
      #expect(hold.startFrequency == first.startFrequency && hold.endFrequency == first.startFrequency)
      #expect(hold.frames == end - nextFrame, "the hold lasts to the batch's end")
      let body = message.batch.segments.dropLast().reduce(0) { $0 + $1.frames }
      #expect(Int(message.batch.startTime) / Int(Self.ticksPerFrame) + body == nextFrame, "the next frame starts where the hold does")
    }
    #expect(
      Self.batches(Array(segments.prefix(3)), holds: true).map(\.batch.segments.count) == [3],
      "a batch that fits one frame carries no hold")
  }

  @Test("All frames delivered: the board drives exactly the batch (the holds are cut whole)")
  func deliveredWhole() {
    let segments = Self.replacement()
    let end = Self.startFrame + segments.reduce(0) { $0 + $1.frames }
    let (levels, queue) = Self.play(Self.batches(segments, holds: true))
    for frame in Self.startFrame..<end {
      #expect(levels[frame] == Self.expected(segments, at: frame), "frame \(frame)")
    }
    #expect(levels[Self.startFrame - 1] == 30, "the old drive up to the replace")
    #expect(queue.underruns == 0 && queue.lateSegments == 0)
  }

  @Test("A later frame lost and resent 15 frames late: the board holds its first level, never 0")
  func laterFrameLost() throws {
    let segments = Self.replacement()
    let messages = Self.batches(segments, holds: true)
    let second = Int(messages[1].batch.startTime) / Int(Self.ticksPerFrame)
    let resent = second + 15
    let late = Dictionary(uniqueKeysWithValues: (1..<messages.count).map { ($0, resent) })
    let (levels, queue) = Self.play(messages, arrivals: late)
    let hold = max(messages[1].batch.segments[0].startLevel, 0)
    #expect(hold > 0)
    for frame in second..<resent {
      #expect(levels[frame] == hold, "frame \(frame) holds \(hold)")
    }
    #expect(queue.underruns == 0, "no gap")
    #expect(queue.lateSegments >= 1, "the resent frame counts as late")
    // Without holds the same loss is a 15-frame gap at 0: what the holds are for.
    let bareMessages = Self.batches(segments, holds: false)
    let bareSecond = Int(bareMessages[1].batch.startTime) / Int(Self.ticksPerFrame)
    let (bare, bareQueue) = Self.play(
      bareMessages, arrivals: Dictionary(uniqueKeysWithValues: (1..<bareMessages.count).map { ($0, bareSecond + 15) }))
    #expect(bare[bareSecond] == 0 && bareQueue.underruns == 1)
  }
}
