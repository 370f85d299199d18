import HapticRenderer
import HapticWire
import Testing

/// A change's messages each reach the board before the drive they carry starts
/// (``SegmentBatchPacker/Deadline``, docs/protocol.md §8): checked with the frames' real encoded
/// sizes at 115 200 baud, on dense drive (a new level, or level and frequency, every 1 ms frame)
/// and a sparse one.
@Suite("Packing to a deadline")
struct PackingDeadlineTests {
  static let secondsPerByte = 10.0 / 115_200
  static let framePeriod = 0.001

  /// `count` one-frame segments, each a new level (3 bytes a frame), and with `frequencies` a
  /// new frequency too (5 bytes a frame: denser than 115 200 baud carries behind a short lead).
  static func dense(_ count: Int, frequencies: Bool = false) -> [Segment] {
    (0..<count).map {
      let hz = frequencies ? 150 + $0 % 40 : 170
      return Segment(frames: 1, startLevel: 20 + $0 % 90, endLevel: 20 + $0 % 90, startFrequency: hz, endFrequency: hz)
    }
  }

  static func replace(_ segments: [Segment], deadline: SegmentBatchPacker.Deadline?) -> [WireMessage] {
    SegmentBatch.messages(
      for: segments, channel: 0, startFrame: 0, levelBytes: 1, ticksPerFrame: 1_000, replace: true, maximumPayload: 64,
      holds: true, deadline: deadline)
  }

  static func deadline(_ lead: Double) -> SegmentBatchPacker.Deadline {
    SegmentBatchPacker.Deadline(lead: lead, secondsPerByte: secondsPerByte, framePeriod: framePeriod)
  }

  /// Each message's arrival (its frame and those before it written back to back from 0, real
  /// encoded sizes) less its drive's start (`lead` after 0 for the first segment), seconds.
  static func slack(_ messages: [WireMessage], lead: Double) -> [Double] {
    var written = 0
    var slack: [Double] = []
    for message in messages {
      let batch: SegmentBatch
      switch message {
      case .queueSegments(let b), .replaceSegments(let b): batch = b
      default: continue
      }
      written += WireFrame(flags: [.reliable], session: 1, seq: 0, ack: 0, type: message.kind.rawValue, payload: message.payload()).encoded().count
      let start = lead + Double(batch.startTime) / 1_000 * framePeriod
      slack.append(start - Double(written) * secondsPerByte)
    }
    return slack
  }

  @Test("A replace of a new level every frame 5 ms ahead: a shorter first message, then full ones, every one in time (unpaced, the first came 1.6 ms late)")
  func denseReplaceArrivesInTime() throws {
    let lead = 0.005
    let segments = Self.dense(200)
    let timed = Self.replace(segments, deadline: Self.deadline(lead))
    let slack = Self.slack(timed, lead: lead)
    #expect(slack.allSatisfy { $0 >= 0 }, "late by \(slack.filter { $0 < 0 }.map { -$0 * 1000 }) ms")
    let sizes = timed.map { $0.payload().count }
    #expect(sizes[0] < 56 && sizes.max() ?? 0 > 56, "\(sizes)")
    #expect(SegmentBatchPacker.lateness(of: timed, deadline: Self.deadline(lead), startFrame: 0, ticksPerFrame: 1_000) <= 0)
    #expect(try #require(Self.slack(Self.replace(segments, deadline: nil), lead: lead).first) < -0.001, "a 64-byte first message takes 6.6 ms")
  }

  @Test("Drive denser than the line behind that lead: lateness says by how much, and that much more lead is enough")
  func denserThanTheLine() throws {
    let lead = 0.0029
    let segments = Self.dense(200, frequencies: true)
    let late = SegmentBatchPacker.lateness(of: Self.replace(segments, deadline: Self.deadline(lead)), deadline: Self.deadline(lead), startFrame: 0, ticksPerFrame: 1_000)
    #expect(late > 0.001, "\(late * 1000) ms")
    let later = lead + late
    let slack = Self.slack(Self.replace(segments, deadline: Self.deadline(later)), lead: later)
    #expect(slack.allSatisfy { $0 >= -1e-9 }, "late by \(slack.filter { $0 < 0 }.map { -$0 * 1000 }) ms with \(later * 1000) ms")
  }

  @Test("A refill far ahead packs as without a deadline; sparse drive fits one message")
  func farAheadIsUnchanged() throws {
    let far = Self.deadline(0.2)
    let segments = Self.dense(120)
    let packed = SegmentBatch.messages(
      for: segments, channel: 0, startFrame: 0, levelBytes: 1, ticksPerFrame: 1_000, maximumPayload: 64, deadline: far)
    #expect(packed == SegmentBatch.messages(for: segments, channel: 0, startFrame: 0, levelBytes: 1, ticksPerFrame: 1_000, maximumPayload: 64))
    let sparse = [Segment(frames: 400, startLevel: 60, endLevel: 60, startFrequency: 170, endFrequency: 170)]
    #expect(Self.replace(sparse, deadline: Self.deadline(0.003)).count == 1)
  }
}
