import HapticRenderer
import HapticWire

/// The streaming scheduler: renders the mix a bounded lookahead ahead of the board clock and
/// turns it into segment batches; a change re-renders from the earliest frame it can still
/// reach and goes out as `replace segments`, so its latency is one transmission, whatever the
/// lookahead (docs/architecture.md §5).
///
/// Pure: it is told the board's current frame and returns what to send.
struct StreamScheduler: Sendable {
  /// A batch to send: `queue` appends, `replace` drops the board's drive from its start on.
  struct Batch: Sendable {
    var replace: Bool
    var channel: Int
    var startFrame: Int
    var segments: [Segment]
    /// Its wire messages, when a change packed them already to check that they arrive in time
    /// (``HapticEngine`` `+Fitting`); nil: packed when sent.
    var messages: [WireMessage]?
  }

  /// The most drive one refill renders, seconds.
  static let maximumChunkSeconds = 0.040

  /// Counters.
  struct Counters: Sendable {
    var framesRendered = 0
    var segments = 0
    var replaces = 0
    /// Ticks that found the host behind the board (frames lost, not caught up).
    var underruns = 0
    /// The frame at which the drive sent came to rest (the first after the last that drove or
    /// braked), nil before anything drove.
    var restFrame: Int?
    /// The drive's onsets sent (``MixState/onsets``).
    var onsets: [(frame: Int, channel: Int)] = []
  }

  /// Frames rendered ahead of the board's current frame (the engine adapts it to the link).
  var lookahead: Int {
    didSet { lookahead = max(lookahead, 1) }
  }
  /// The most frames one refill renders (a long lookahead is topped up in chunks of this).
  let maximumChunk: Int
  /// The queued frames (beyond the guard) below which a refill goes out.
  var refillLevel: Int { lookahead - min(lookahead / 2, maximumChunk) }
  /// Frames between the board's current frame and the earliest one a change may still reach
  /// (covers transmission and clock-sync error).
  let guardFrames: Int
  /// At the earliest changeable frame.
  private(set) var base: MixState
  /// At the first frame not yet sent.
  private(set) var head: MixState
  /// Copies of the head from the start of its renders still ahead of the base: at a pass the
  /// base moves on to the latest one it has reached instead of rendering every frame a second
  /// time (half the scheduler's work), and stays there while nothing a reader of the base sees
  /// differs from the head (``passBase(to:)``). A render's start is reached a lookahead after
  /// it, so a lookahead of several refills needs several (``snapshotLimit``). Dropped whenever
  /// the base changes otherwise (an action, a track added or pruned, a loop or mute change),
  /// since they would not have it.
  private var snapshots: [MixState] = []
  /// The most ``snapshots`` kept: one a refill over the head's lookahead and the base's lag
  /// behind the board (``passBase(to:)``, at most a lookahead), and two more.
  private var snapshotLimit: Int { 2 * lookahead / max(min(lookahead / 2, maximumChunk), 1) + 2 }
  /// Whether renders keep ``snapshots`` and the base may lag (``passBase(to:)``); off only for
  /// the test that checks they change nothing.
  var keepsSnapshots = true
  /// Frames the base rendered itself (moving on to a change's frame or a pass's).
  private(set) var baseFramesRendered = 0
  /// The tallies kept as batches go out; ``counters`` adds what the head's state knows.
  private var tallies = Counters()
  /// The counters so far, with the drive's rest and onsets read from the head (what was sent),
  /// not copied into the tallies at every render.
  var counters: Counters {
    var counters = tallies
    counters.restFrame = head.lastBusyFrame.map { $0 + 1 }
    counters.onsets = head.onsets
    return counters
  }
  /// Whether the last batch sent ended on a non-zero level (then zeros must follow explicitly,
  /// or the board would count an underrun).
  private var lastSentDriven = false
  /// Segments a channel's queue on the board holds at most (its capabilities' `queueDepth`).
  let queueDepth: Int
  /// The profile's channels.
  let channelCount: Int
  /// Per channel, what the board has queued (``BoardQueueModel``).
  private var queues: [BoardQueueModel] = []
  /// Queue slots left free: the hold segments of a replace split over several frames (at most
  /// two on a 32-segment board at 32-byte frames) and the segment an encoder closes at a stop.
  static let queueMargin = 3
  /// The frame at which a refill held back by a full board queue may go on.
  private var queueFreesAt: Int?

  init(
    profile: BoardProfile, startFrame: Int, lookahead: Int, guardFrames: Int, queueDepth: Int = Int(UInt16.max)
  ) throws(RenderError) {
    self.queueDepth = max(queueDepth, Self.queueMargin + 2)
    channelCount = profile.channels.count
    self.lookahead = max(lookahead, 1)
    self.guardFrames = max(guardFrames, 1)
    maximumChunk = max(Int((Self.maximumChunkSeconds / profile.framePeriod).rounded()), 1)
    base = try MixState(profile: profile, frame: startFrame)
    head = base
  }

  /// The earliest frame a change made now can reach: the guard's frames on, and not before
  /// `least` (the engine's reading of how far the change must go: the part of the current frame
  /// already gone, what the host already wrote still on the wire; ``HapticEngine/changeClock()``).
  func earliest(now: Int, least: Int = 0) -> Int { max(now + guardFrames, least, base.frame) }

  /// Moves on to the board's frame `now`: advances the base, renders up to `now + lookahead`
  /// and returns the batches to queue. A host that fell behind skips the lost frames (counted
  /// as an underrun) instead of sending them late. `early`: frames before the refill is due
  /// that it may already go (a pass shared with other boards' comes a little early).
  mutating func tick(now: Int, early: Int = 0) -> [Batch] {
    let commit = now + guardFrames
    if head.frame < now {
      // Behind the board: frames before `now` are lost — never sent late as a backlog, and
      // never caught up by sending more than the lookahead (the spiral of death). Resume at
      // the board's current frame.
      if !base.isQuiet {
        tallies.underruns += 1
      }
      Self.advance(&base, to: now, quietJump: true)
      head = base
      snapshots.removeAll()
    }
    // Refill only when a chunk is missing: batches of half the lookahead (at most
    // `maximumChunk`) instead of a sliver every pass (fewer frames, less link time), small
    // enough on a long lookahead that a lost frame costs little to resend.
    var batches: [Batch] = []
    if head.frame < now + max(early, 0) + guardFrames + refillLevel {
      // A grown lookahead fills in chunks over the next passes (each due at once), not in
      // one burst of frames.
      batches = render(to: min(now + guardFrames + lookahead, head.frame + maximumChunk), replace: false, now: now)
    }
    passBase(to: commit)
    return batches
  }

  /// Moves the base on at a pass, to `frame` or a little short of it. To the latest snapshot at
  /// or before `frame`, and no further while it looks like the head to the base's readers
  /// (``looksAlike(_:_:)``: the engine's completions, its idle test, a playhead), at most a
  /// lookahead behind: the frames between are rendered only if a change needs the base there
  /// (``schedule(_:track:at:now:least:)`` and ``modify(at:now:least:_:)`` move it on first),
  /// so a steady stream renders each frame about once. Without it the base rendered, from a
  /// refill's start to each pass's frame, half of every refill again: on a rig's 16 boards a
  /// sixth of the host's work. Otherwise exactly to `frame`.
  private mutating func passBase(to frame: Int) {
    guard keepsSnapshots else { return advanceBase(to: frame) }
    takeSnapshot(upTo: frame)
    if frame - base.frame <= lookahead && Self.looksAlike(base, head) { return }
    advanceBase(to: frame)
  }

  /// Moves the base to the latest snapshot between it and `frame`, if there is one, dropping
  /// that one and those before it.
  private mutating func takeSnapshot(upTo frame: Int) {
    guard let index = snapshots.lastIndex(where: { $0.frame <= frame && $0.frame > base.frame }) else { return }
    base = snapshots[index]
    snapshots.removeFirst(index + 1)
  }

  /// Whether the base's readers would see the same in `earlier` as in `later` and so in every
  /// state between: a track plays in both (nothing comes to rest between them), and every
  /// track has the same state, end, start and pending actions in both.
  static func looksAlike(_ earlier: MixState, _ later: MixState) -> Bool {
    guard earlier.muted == later.muted, earlier.tracks.count == later.tracks.count else { return false }
    var playing = false
    for index in earlier.tracks.indices {
      let (a, b) = (earlier.tracks[index], later.tracks[index])
      guard a.id == b.id, a.state == b.state, a.finishedAt == b.finishedAt, a.startedAt == b.startedAt,
        a.actions.count == b.actions.count, a.muted == b.muted
      else { return false }
      if a.state == .playing { playing = true }
    }
    return playing
  }

  /// Moves the base on to `frame` (its drive is then committed): from the latest snapshot of the
  /// head it has reached, rendering only the frames past it.
  private mutating func advanceBase(to frame: Int) {
    takeSnapshot(upTo: frame)
    baseFramesRendered += max(frame - base.frame, 0)
    Self.advance(&base, to: frame, quietJump: false)
  }

  /// Schedules `action` for track `id` at `frame` (moved to the earliest reachable frame if
  /// earlier); returns the batches to send (a `replace` batch when the change falls in drive
  /// already sent) and the frame it takes effect. `least`: the frame the change may take effect at,
  /// at the earliest (``earliest(now:least:)``).
  mutating func schedule(
    _ action: TrackAction, track id: Int, at frame: Int, now: Int, least: Int = 0
  ) -> (batches: [Batch], frame: Int) {
    // Catch up first (as a pass of the loop would): the head then reaches past the earliest
    // frame, so the action goes out now as a replace instead of waiting for the next pass.
    var batches = tick(now: now)
    let at = max(frame, earliest(now: now, least: least))
    advanceBase(to: min(at, max(base.frame, now + guardFrames)))
    base.schedule(action, track: id, at: at)
    snapshots.removeAll()
    guard at < head.frame else {
      // Beyond what was sent: the head meets it in time.
      head.schedule(action, track: id, at: at)
      return (batches, at)
    }
    batches += rebase(from: at, now: now)
    return (batches, at)
  }

  /// Applies a change to every future frame from `frame` (loop settings, muting); `least` as
  /// for ``schedule(_:track:at:now:least:)``.
  mutating func modify(at frame: Int, now: Int, least: Int = 0, _ change: (inout MixState) -> Void) -> [Batch] {
    let at = max(frame, earliest(now: now, least: least))
    advanceBase(to: min(at, max(base.frame, now + guardFrames)))
    change(&base)
    snapshots.removeAll()
    return rebase(from: base.frame, now: now)
  }

  /// Adds a player's track (idle until started).
  mutating func add(_ track: PlayerTrack) {
    base.add(track)
    head.add(track)
    snapshots.removeAll()
  }

  /// A snapshot of the tracks as the board will play them at the head.
  var tracks: [PlayerTrack] { base.tracks }

  /// The audio marks of the frames rendered so far (the head's: it is ahead of the base, and a
  /// re-render from the base marks its frames again; the engine keeps what it already routed).
  mutating func takeAudioMarks() -> [(id: Int, mark: AudioMark)] {
    _ = base.takeAudioMarks()
    return head.takeAudioMarks()
  }

  /// Drops tracks of players that are gone and have finished.
  mutating func prune(keeping ids: Set<Int>) {
    base.prune(keeping: ids)
    head.prune(keeping: ids)
    snapshots.removeAll()
  }

  /// The board frame by which the next pass is due, or `nil` when nothing plays: when the
  /// queue will have fallen to half the lookahead (the refill point of ``tick(now:)``), or
  /// when a track's end is played (its completion is reported), whichever comes first.
  func nextPass(now: Int) -> Int? {
    guard !isQuiet else { return nil }
    var due = head.frame - guardFrames - refillLevel + 1
    // Held back by the board's queue: not before it frees a slot.
    if let frees = queueFreesAt { due = max(due, frees) }
    for track in base.tracks {
      if let end = track.finishedAt, end > now { due = min(due, end) }
    }
    return due
  }

  /// True when nothing plays and nothing is pending.
  var isQuiet: Bool { base.isQuiet && head.isQuiet }

  /// Re-renders from `frame` (the base advanced to it) to the current head, as a replace.
  private mutating func rebase(from frame: Int, now: Int) -> [Batch] {
    let end = head.frame
    var state = base
    Self.advance(&state, to: frame, quietJump: false)
    head = state
    guard end > head.frame else { return [] }
    tallies.replaces += 1
    return render(to: end, replace: true, now: now)
  }

  /// Renders the head up to (not including) `end` and packs the frames into one batch per
  /// channel. A queue batch of nothing but zero levels is not sent (the board plays 0 in gaps).
  /// It stops early where a channel's batch would overfill the board's queue at frame `now`
  /// (the rest follows when segments have played).
  private mutating func render(to end: Int, replace: Bool, now: Int) -> [Batch] {
    guard end > head.frame else { return [] }
    let start = head.frame
    if queues.count != channelCount { queues = Array(repeating: BoardQueueModel(), count: channelCount) }
    // Segments each channel's batch may take: the queue's depth less what the board keeps and
    // the margin; the encoder's open segment closes at the end, so stop one short of it.
    let budgets = queues.indices.map { queueDepth - Self.queueMargin - queues[$0].kept(at: now, before: start) }
    queueFreesAt = nil
    guard budgets.allSatisfy({ $0 >= 2 }) else {
      queueFreesAt = queues.compactMap(\.nextFree).min()
      return []
    }
    if keepsSnapshots {
      snapshots.removeAll { $0.frame <= base.frame }
      if snapshots.count >= snapshotLimit { snapshots.removeFirst() }
      snapshots.append(head)
    }
    var encoders: [SegmentEncoder] = []
    var segments: [[Segment]] = []
    var driven = false
    var frames: [Frame] = []
    while head.frame < end {
      head.render(into: &frames)
      if encoders.isEmpty {
        encoders = Array(repeating: SegmentEncoder(), count: frames.count)
        segments = Array(repeating: [], count: frames.count)
      }
      for (channel, frame) in frames.enumerated() {
        if frame.level != 0 { driven = true }
        if let segment = encoders[channel].add(frame) { segments[channel].append(segment) }
      }
      tallies.framesRendered += 1
      if segments.indices.contains(where: { segments[$0].count >= budgets[$0] - 1 }) {
        queueFreesAt = queues.compactMap(\.nextFree).min()
        break
      }
    }
    for channel in encoders.indices {
      if let segment = encoders[channel].finish() { segments[channel].append(segment) }
    }
    let endsDriven = segments.contains { ($0.last?.endLevel ?? 0) != 0 }
    defer { lastSentDriven = endsDriven }
    guard driven || replace || lastSentDriven else { return [] }
    // A replace of nothing but zero levels on a channel whose queue holds no drive from its
    // start changes nothing the board plays: not sent (a player's settings made before it starts
    // — rate, loop — would each replace every channel; a two-channel send's start sent 8
    // batches in one burst, and the last came 2-3 ms after their start: `late_batch`).
    var batches: [Batch] = []
    for channel in segments.indices {
      let silent = segments[channel].allSatisfy { $0.startLevel == 0 && $0.endLevel == 0 }
      if replace && silent && !queues[channel].drives(from: start) { continue }
      tallies.segments += segments[channel].count
      queues[channel].record(startFrame: start, segments: segments[channel])
      batches.append(Batch(replace: replace, channel: channel, startFrame: start, segments: segments[channel]))
    }
    return batches
  }

  /// Advances `state` to `frame` by rendering (or, when `quietJump` and nothing sounds, jumping).
  private static func advance(_ state: inout MixState, to frame: Int, quietJump: Bool) {
    var frames: [Frame] = []
    while state.frame < frame {
      if quietJump && state.isQuiet {
        state.jump(to: frame)
        return
      }
      state.render(into: &frames)
    }
  }
}
