import HapticCore
import HapticRenderer

/// A command for one player, to take effect at a board frame.
enum TrackAction: Sendable {
  case start
  case stop
  case pause
  case resume
  case seek(Double)
  case rate(Double)
  case parameters([DynamicParameter])
  case curve(ParameterCurve)
  case mute(Bool)
}

/// What a player's audio does from a board frame (docs/semantics.md §13.9): play the pattern's
/// audio from `offset` (pattern seconds) at `rate`, or fall silent (`offset == nil`). With
/// `midEvent`, sounds under way at the offset go on from where they are (a resume, a rate
/// change, an unmute); without, they do not begin mid-event (a start, a seek, a loop wrap).
struct AudioMark: Sendable, Equatable {
  var frame: Int
  var offset: Double?
  var rate: Double
  var midEvent: Bool
}

/// One player on the board's frame grid: its pattern's voices per channel, where it is in the
/// pattern, and its pending actions. Advanced frame by frame by ``MixState``.
///
/// Pattern time runs at `rate` board seconds per second while playing. The voices are rendered
/// from a copy of the pattern that starts at `origin` (a seek, or a rate change) and is
/// time-scaled by 1 / `rate`, so voice frame `i` is pattern time `origin + i·T·rate`.
struct PlayerTrack: Sendable {
  enum State: Sendable, Equatable { case idle, playing, paused, finished }

  /// A channel's voices of the pattern.
  struct ChannelVoices: Sendable {
    let channel: Int
    var voices: PatternVoices
  }

  let id: Int
  let pattern: HapticPattern
  let profile: BoardProfile
  /// The channels the player plays on (the engine checked that each exists), in order.
  let channels: [Int]
  var state = State.idle
  var muted = false
  var loopEnabled = false
  /// Pattern seconds at which a loop wraps (0: the end of the last event).
  var loopEnd = 0.0
  private(set) var rate = 1.0
  private(set) var origin = 0.0
  private var skipStarted = false
  /// Where the current run's kept events start (pattern seconds): a rate change rebuilds from
  /// there, so an event kept by a loop wrap's carry is kept again.
  private var keptFrom = 0.0
  private var voices: [ChannelVoices] = []
  /// Pending actions by board frame, in the order they were scheduled.
  var actions: [(frame: Int, action: TrackAction)] = []
  /// The board frame where the track last finished (for completion), if it has.
  var finishedAt: Int?
  /// The board frame where the track last started.
  var startedAt: Int?
  /// What its audio did as the frames were rendered, since the engine last took them (only for
  /// a pattern with audio events).
  var audioMarks: [AudioMark] = []
  /// Whether the pattern has audio events (else nothing is marked).
  private let hasAudio: Bool
  /// The pattern's duration (asked every frame of a looping player: a walk over its entries).
  private let patternDuration: Double
  /// The last value sent for each dynamic parameter (`sendParameters`): carried into new
  /// voices after a seek, a loop wrap or a rate change, so a live control stays (the end of a
  /// run clears it).
  private var liveControls: [DynamicParameterID: Double] = [:]

  /// A track for `pattern` on `channels` (every channel of the board when nil).
  init(id: Int, pattern: HapticPattern, profile: BoardProfile, channels: [Int]? = nil) {
    self.id = id
    self.pattern = pattern
    self.profile = profile
    self.channels = channels ?? Array(profile.channels.indices)
    hasAudio = pattern.events.contains { !$0.type.isHaptic }
    patternDuration = pattern.duration
  }

  /// Whether a start is pending (a finish recorded before it belongs to the previous run).
  var startsAgain: Bool {
    actions.contains { if case .start = $0.action { return true } else { return false } }
  }

  /// Pattern seconds now.
  var patternTime: Double {
    origin + Double(voices.first?.voices.frameIndex ?? 0) * profile.framePeriod * rate
  }

  /// Where a loop wraps, in pattern seconds.
  var loopPoint: Double { loopEnd > 0 ? loopEnd : patternDuration }

  /// Applies the actions due at `frame`, then renders this frame's target per channel (nil when
  /// silent: not playing or muted).
  mutating func next(frame: Int, into targets: inout [[FrameTarget]]) {
    if !actions.isEmpty { applyActions(at: frame) }
    guard state == .playing else { return }
    guard !voices.isEmpty else {
      // Nothing to render (cannot happen for a valid pattern: excerpts stay valid): end the run
      // rather than play silence forever.
      finish(at: frame)
      return
    }
    if loopEnabled && patternTime >= loopPoint - 1e-9 && loopPoint > 0 {
      // The wrap comes on a frame, up to a frame's pattern time past the loop point: the next
      // run starts that far in, so runs last loopPoint / rate on average (dropping it made every
      // run a whole number of frames: at a rate that did not divide a frame, up to a frame
      // longer each, 0.8 ms per run of a 0.8 s loop at 0.9998). Its events at the very start are
      // played from its first frame.
      rebuild(from: min(max(patternTime - loopPoint, 0), profile.framePeriod * rate), skipStarted: false, keepingFrom: 0)
      markAudio(frame, from: 0, midEvent: false)
    }
    for index in voices.indices {
      let target = voices[index].voices.next()
      if !muted { targets[voices[index].channel].append(target) }
    }
    if allVoicesFinished {
      if loopEnabled && loopPoint > 0 {
        // Finished early (loop end beyond the last sound): wait silently for the loop point.
        return
      }
      finish(at: frame + 1)
    }
  }

  /// Whether every channel's voices are done (asked every frame: by index, with no key path
  /// applied to copies of the voices).
  private var allVoicesFinished: Bool {
    for index in voices.indices where !voices[index].voices.isFinished { return false }
    return true
  }

  /// Records what the audio does from `frame`.
  private mutating func markAudio(_ frame: Int, from offset: Double?, midEvent: Bool = false) {
    guard hasAudio else { return }
    audioMarks.append(AudioMark(frame: frame, offset: offset, rate: rate, midEvent: midEvent))
  }

  /// Ends the run at `frame`. What `sendParameters` set during it does not carry over to the
  /// next start (a restart plays the pattern as written); parameters sent after this, before
  /// the next start, count from that start.
  private mutating func finish(at frame: Int?) {
    state = .finished
    if let frame { finishedAt = frame }
    voices = []
    liveControls = [:]
  }

  private mutating func applyActions(at frame: Int) {
    // Most frames have actions pending for later (a live parameter a few frames ahead): look
    // before copying the list (a copy per frame was a tenth of a board server's CPU under load).
    guard actions.contains(where: { $0.frame <= frame }) else { return }
    var remaining: [(frame: Int, action: TrackAction)] = []
    for entry in actions {
      guard entry.frame <= frame else {
        remaining.append(entry)
        continue
      }
      apply(entry.action, at: frame)
    }
    actions = remaining
  }

  private mutating func apply(_ action: TrackAction, at frame: Int) {
    switch action {
    case .start:
      rebuild(from: 0, skipStarted: false)
      state = .playing
      startedAt = frame
      finishedAt = nil
      markAudio(frame, from: 0, midEvent: false)
    case .stop:
      if state == .playing || state == .paused { markAudio(frame, from: nil) }
      finish(at: state != .idle && state != .finished ? frame : nil)
    case .pause:
      if state == .playing {
        state = .paused
        markAudio(frame, from: nil)
      }
    case .resume:
      if state == .paused {
        state = .playing
        markAudio(frame, from: patternTime, midEvent: true)
      }
    case .seek(let offset):
      guard state != .idle && state != .finished else { return }
      if offset >= patternDuration && !(loopEnabled && loopPoint > 0) {
        markAudio(frame, from: nil)
        finish(at: frame)
        return
      }
      rebuild(from: offset >= patternDuration ? 0 : offset, skipStarted: true)
      if state == .playing { markAudio(frame, from: origin, midEvent: false) }
    case .rate(let newRate):
      guard Self.rates.contains(newRate), newRate != rate else { return }
      let now = patternTime
      let keepSkipping = skipStarted
      let start = origin
      rate = newRate
      guard state == .playing || state == .paused else { return }
      // Re-render from the same origin at the new rate, up to the same pattern time: whole
      // frames, and the part of a frame left over carried into the origin (rounding it instead
      // moved the pattern by up to half a frame per change; a rig's boards, steered by their
      // rates, walked apart by it).
      let step = profile.framePeriod * rate
      let frames = Int(min(max(((now - start) / step).rounded(.down), 0), Double(Int32.max)))
      let carry = min(max(now - start - Double(frames) * step, 0), step)
      rebuild(from: start + carry, skipStarted: keepSkipping, keepingFrom: keptFrom)
      for _ in 0..<frames { for index in voices.indices { _ = voices[index].voices.next() } }
      if state == .playing { markAudio(frame, from: now, midEvent: true) }
    case .parameters(let parameters):
      for parameter in parameters { liveControls[parameter.id] = parameter.value }
      let at = Double(voices.first?.voices.frameIndex ?? 0) * profile.framePeriod
      for index in voices.indices {
        for parameter in parameters {
          voices[index].voices.insert(DynamicParameter(parameter.id, value: parameter.value, time: at))
        }
      }
    case .curve(let curve):
      let at = Double(voices.first?.voices.frameIndex ?? 0) * profile.framePeriod
      let points = curve.controlPoints.map { ParameterCurve.ControlPoint(time: $0.time / rate, value: $0.value) }
      for index in voices.indices {
        voices[index].voices.insert(ParameterCurve(curve.id, time: at, controlPoints: points))
      }
    case .mute(let flag):
      if flag != muted && state == .playing { markAudio(frame, from: flag ? nil : patternTime, midEvent: true) }
      muted = flag
    }
  }

  /// New voices for the pattern from `offset` (pattern seconds) at the current rate. With
  /// `skipStarted`, events already under way at the offset are dropped (Apple: after a seek,
  /// continuous events do not begin mid-event); steps and curves in force carry over.
  /// With `keepingFrom` (a loop wrap or a rate change carrying less than a frame), events from
  /// there up to `offset` are kept, at the excerpt's start.
  private mutating func rebuild(from offset: Double, skipStarted: Bool, keepingFrom: Double? = nil) {
    origin = offset
    keptFrom = min(keepingFrom ?? offset, offset)
    self.skipStarted = skipStarted
    let scaled = Self.excerpt(pattern, from: offset, rate: rate, loopEnd: loopEnabled ? loopPoint : nil, keepingFrom: keepingFrom)
    voices = channels.compactMap { channel in
      (try? PatternVoices(pattern: scaled, profile: profile, channel: channel)).map { ChannelVoices(channel: channel, voices: $0) }
    }
    for (id, value) in liveControls.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      for index in voices.indices { voices[index].voices.insert(DynamicParameter(id, value: value, time: 0)) }
    }
  }

  /// The playback rates a player takes: 1/64 to 64 (others are ignored: a pattern slowed a
  /// millionfold would never end, and re-rendering up to the same pattern time would not either).
  static let rates = (1.0 / 64)...64.0

  /// Restores what a stopped engine's player had set (rate, mute) on its fresh track.
  mutating func restore(rate: Double, muted: Bool) {
    if Self.rates.contains(rate) { self.rate = rate }
    self.muted = muted
  }

  /// The part of `pattern` from `offset` on, shifted to start at 0 and time-scaled by 1/rate.
  /// With `keepingFrom`, events that start from there up to `offset` are kept at 0, less what
  /// of them lies before it (the carry of a loop wrap or a rate change, under a frame:
  /// ``next(frame:into:)``).
  static func excerpt(
    _ pattern: HapticPattern, from offset: Double, rate: Double, loopEnd: Double?, keepingFrom: Double? = nil
  ) -> HapticPattern {
    let scale = 1 / rate
    let earliest = min(keepingFrom ?? offset, offset) - 1e-9
    let events = pattern.events.compactMap { event -> HapticEvent? in
      guard event.time >= earliest else { return nil }
      if let loopEnd, event.time >= loopEnd { return nil }
      var copy = event
      copy.time = max(event.time - offset, 0) * scale
      copy.duration = event.duration.map { max($0 - max(offset - event.time, 0), 0) * scale }
      if let duration = copy.duration, duration <= 0, event.type == .hapticContinuous { return nil }
      return copy
    }
    let (parameters, curves) = PatternControls.excerpt(pattern, from: offset, scale: scale)
    var excerpt = HapticPattern(events: events, parameters: parameters, curves: curves)
    // How the pattern's intensities play is part of it (a `.haptic` clip's: docs/semantics.md §17).
    excerpt.intensityControlScope = pattern.intensityControlScope
    excerpt.intensityLaw = pattern.intensityLaw
    return excerpt
  }
}
