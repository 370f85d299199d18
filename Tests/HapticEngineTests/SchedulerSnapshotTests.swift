import HapticCore
import HapticRenderer
import Testing

@testable import HapticEngine

/// The scheduler moves its base on by taking copies of the head instead of rendering each frame
/// a second time (`StreamScheduler.snapshots`). The copies must change nothing it sends: the
/// same batches, pass for pass, as a scheduler that renders the base itself, under passes early
/// and late, starts, seeks, rate changes, pauses, live parameters, loop changes and stops.
@Suite struct SchedulerSnapshotTests {
  /// A small deterministic generator (SplitMix64), so a failure names its seed.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  static let patterns = [
    HapticPattern(
      events: [EngineHarness.continuous(0.4, intensity: 0.7), EngineHarness.transient(at: 0.1), EngineHarness.transient(at: 0.3)],
      curves: [
        ParameterCurve(
          .hapticIntensityControl, time: 0,
          controlPoints: (0...8).map { .init(time: Double($0) * 0.05, value: $0 % 2 == 0 ? 0.4 : 1) })
      ]),
    HapticPattern(events: [EngineHarness.continuous(0.25, intensity: 1, sharpness: 0.9, at: 0.05)]),
  ]

  /// What one scheduler sent, batch by batch.
  struct Sent: Equatable {
    var replace: Bool
    var channel: Int
    var startFrame: Int
    var segments: [Segment]
  }

  /// Runs `seed`'s sequence of passes and actions on both schedulers; returns each one's batches.
  static func run(seed: UInt64, lookahead: Int = 45) throws -> (snapshots: [Sent], reference: [Sent], rendered: (fast: Int, reference: Int)) {
    var random = Generator(state: seed)
    let profile = BoardProfile.simLRA
    func scheduler(keeping: Bool) throws -> StreamScheduler {
      var scheduler = try StreamScheduler(profile: profile, startFrame: 100, lookahead: lookahead, guardFrames: 4)
      scheduler.keepsSnapshots = keeping
      for (id, pattern) in patterns.enumerated() {
        var track = PlayerTrack(id: id, pattern: pattern, profile: profile)
        track.loopEnabled = id == 0
        scheduler.add(track)
      }
      return scheduler
    }
    var fast = try scheduler(keeping: true)
    var reference = try scheduler(keeping: false)
    var sent: (fast: [Sent], reference: [Sent]) = ([], [])
    func record(_ batches: [StreamScheduler.Batch]) -> [Sent] {
      batches.map { Sent(replace: $0.replace, channel: $0.channel, startFrame: $0.startFrame, segments: $0.segments) }
    }
    var now = 100
    let passes = 300
    for _ in 0..<passes {
      // Passes on time, early (a change woke the loop) and late (a busy host).
      now += [1, 3, 10, 20, 22, 24, 30][random.below(7)]
      sent.fast += record(fast.tick(now: now))
      sent.reference += record(reference.tick(now: now))
      guard random.below(3) == 0 else { continue }
      let track = random.below(patterns.count)
      let at = now + random.below(60)
      if random.below(6) == 0 {
        let enabled = random.below(2) == 0
        let change: (inout MixState) -> Void = { $0.setLoop(track: track, enabled: enabled, end: 0) }
        sent.fast += record(fast.modify(at: at, now: now, change))
        sent.reference += record(reference.modify(at: at, now: now, change))
        continue
      }
      let actions: [TrackAction] = [
        .start, .start, .stop, .pause, .resume, .seek(Double(random.below(30)) / 100),
        .rate([0.5, 1, 1.5][random.below(3)]),
        .parameters([DynamicParameter(.hapticIntensityControl, value: Double(random.below(10)) / 10, time: 0)]),
      ]
      let action = actions[random.below(actions.count)]
      sent.fast += record(fast.schedule(action, track: track, at: at, now: now).batches)
      sent.reference += record(reference.schedule(action, track: track, at: at, now: now).batches)
    }
    return (sent.fast, sent.reference, (fast.baseFramesRendered, reference.baseFramesRendered))
  }

  @Test("Snapshots of the head change no batch the scheduler sends", arguments: 1...12)
  func sameBatches(seed: UInt64) throws {
    // A lookahead of two chunks (the engine's default) and of four (a rig's, grown to 150 ms).
    let (fast, reference, rendered) = try Self.run(seed: seed, lookahead: seed % 2 == 0 ? 45 : 151)
    #expect(reference.count > 50, "seed \(seed): the sequence sent too little to compare (\(reference.count) batches)")
    // Actions every third pass drop the snapshots (and a change moves a lagging base on by
    // rendering): the base still renders less than the reference's, never more.
    #expect(
      rendered.fast < rendered.reference,
      "seed \(seed): the base rendered \(rendered.fast) frames, the reference's \(rendered.reference)")
    #expect(fast.count == reference.count, "seed \(seed)")
    if let index = fast.indices.first(where: { $0 < reference.count && fast[$0] != reference[$0] }) {
      Issue.record("seed \(seed): batch \(index) differs: \(fast[index]) vs \(reference[index])")
    }
  }

  /// A steady stream: the base must not render again what the head rendered, whatever the
  /// lookahead (two snapshots kept and the base moved to each pass's frame: a 151-frame
  /// lookahead rendered 40 % of its frames twice, an 80-frame one about a third).
  @Test("A steady stream renders each frame about once, whatever the lookahead", arguments: [45, 80, 151, 300])
  func longLookahead(lookahead: Int) throws {
    let profile = BoardProfile.simLRA
    var scheduler = try StreamScheduler(profile: profile, startFrame: 0, lookahead: lookahead, guardFrames: 2)
    var track = PlayerTrack(id: 0, pattern: Self.patterns[0], profile: profile)
    track.loopEnabled = true
    scheduler.add(track)
    _ = scheduler.schedule(.start, track: 0, at: 0, now: 0)
    var now = 0
    // Passes as a loop makes them: at each refill point, sometimes a few frames early or late.
    let offsets = [0, -3, 2, 0, 1, -4, 0, 3]
    for pass in 0..<2_000 {
      guard let due = scheduler.nextPass(now: now) else { break }
      now = max(now + 1, due + offsets[pass % offsets.count])
      _ = scheduler.tick(now: now)
    }
    let passed = scheduler.head.frame
    #expect(passed > 20_000, "lookahead \(lookahead): the passes covered only \(passed) frames")
    #expect(
      Double(scheduler.baseFramesRendered) <= 0.05 * Double(passed),
      "lookahead \(lookahead): the base rendered \(scheduler.baseFramesRendered) of \(passed) frames again")
  }
}
