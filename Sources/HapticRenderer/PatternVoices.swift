public import HapticCore

/// What a pattern's voices ask of a channel for one frame, before shaping: their accelerations
/// added in power, and the frequency to drive at.
public struct FrameTarget: Sendable, Hashable {
  /// Σ aᵢ² over the sounding voices, in G².
  public var power: Double
  /// Σ aᵢ²·fᵢ (for the power-weighted mean frequency).
  public var weightedHz: Double
  /// The frequency when this target stands alone (its single voice's, or the weighted mean; the
  /// last one used while silent).
  public var hz: Double
  /// How crisply the drive may be shaped (1 for transients; 0…1 on amplitude-only boards).
  public var crispness: Double
  /// Whether any voice is sounding (its crispness counts even at zero power).
  public var hasVoices: Bool
  /// The part of `power` (and of `weightedHz`) that transients ask for: while it is above 0 the
  /// drive stage ducks the rest (transient priority, docs/semantics.md §11.9).
  public var transientPower: Double
  /// Σ aᵢ²·fᵢ over the sounding transients.
  public var transientWeightedHz: Double
  /// Whether a transient starts within the next ``PatternVoices/transientLeadSeconds``: the
  /// drive stage ducks the continuous part ahead of it, so it starts from near rest.
  public var transientAhead: Bool
  /// Whether a transient starts with the next frame: a host-shaped LRA then sends nothing,
  /// so the transient's burst starts on a restarted carrier as it does from rest.
  public var transientNext: Bool

  /// Creates a target.
  public init(
    power: Double, weightedHz: Double, hz: Double, crispness: Double, hasVoices: Bool,
    transientPower: Double = 0, transientWeightedHz: Double = 0, transientAhead: Bool = false,
    transientNext: Bool = false
  ) {
    self.power = power
    self.weightedHz = weightedHz
    self.hz = hz
    self.crispness = crispness
    self.hasVoices = hasVoices
    self.transientPower = transientPower
    self.transientWeightedHz = transientWeightedHz
    self.transientAhead = transientAhead
    self.transientNext = transientNext
  }

  /// Nothing sounding, at frequency `hz`.
  public static func silent(hz: Double) -> FrameTarget {
    FrameTarget(power: 0, weightedHz: 0, hz: hz, crispness: 0, hasVoices: false)
  }
}

/// A pattern's haptic events as voices on one channel, advanced one frame at a time: the part
/// of the renderer before mixing and shaping (``FrameRenderer`` = voices + ``DriveStage``).
/// The engine mixes several players by feeding several of these into one drive stage.
///
/// Dynamic parameters can be added while it runs (``insert(_:)``), as a player's
/// `sendParameters` does; they take effect from their time on.
public struct PatternVoices: Sendable {
  let map: PerceptualMap
  let period: Double
  private let events: [HapticEvent]
  /// The frame each event starts on (round(time / period)), parallel to `events`.
  private let startFrames: [Int]
  private var controlSource: HapticPattern
  /// Whether the intensity control scales transients (`.haptic` clips: it does not).
  private let scope: HapticPattern.IntensityControlScope
  /// The controls' timeline for voices starting from now on; nil after an insert until a voice
  /// starts (built when needed: a live control streamed at 60 Hz rebuilt it for nothing).
  private var controls: ControlTimeline?
  private var intensityControl: ControlCursor
  private var sharpnessControl: ControlCursor
  private var nextEvent = 0
  /// The index of the next transient event not yet started (`events.count` when none).
  private var nextTransient = 0
  /// Frames before a transient during which the continuous part is ducked.
  private let leadFrames: Int
  private var active: [Voice] = []
  /// The next frame to render.
  public private(set) var frameIndex = 0
  private var lastFrequency: Double
  /// The earliest end frame among the active voices.
  private var nextVoiceEnd = Int.max
  /// Until this frame the target is known to stay `lastTarget`: no voice starts or ends, no
  /// envelope moves, no control changes (long sustained events and silences cost no mixing).
  private var steadyUntil = 0
  private var lastTarget = FrameTarget.silent(hz: 0)
  /// Control-rate evaluation while the target is smooth (``TargetRamp``).
  private var ramp = TargetRamp()
  private let usesRamps: Bool
  let windows: TransientWindows

  /// Prepares the voices of `pattern` for `channel` of `profile`.
  ///
  /// - Throws: ``RenderError`` when the profile is unusable, the channel does not exist, the
  ///   pattern has an entry no player can honour (``HapticCore/HapticPattern/problem``: a
  ///   non-finite or negative time, …) or it is longer than ``RenderOptions/maxDuration``.
  public init(
    pattern: HapticPattern, profile: BoardProfile, channel: Int = 0, options: RenderOptions = RenderOptions()
  ) throws(RenderError) {
    if let problem = profile.problem { throw RenderError(board: profile.id, message: problem) }
    guard profile.channels.indices.contains(channel) else {
      throw RenderError(board: profile.id, message: "no channel \(channel) (the board has \(profile.channels.count))")
    }
    if let problem = pattern.problem { throw RenderError(board: profile.id, message: problem.description) }
    let lastEnd = pattern.events.reduce(pattern.duration) { Swift.max($0, $1.time + ($1.duration ?? 0)) }
    guard lastEnd <= options.maxDuration else {
      throw RenderError(
        board: profile.id, message: "the pattern lasts \(lastEnd) s, over the \(options.maxDuration) s limit")
    }
    let actuator = profile.channels[channel]
    // A clip's intensities are √ of linear amplitudes: it plays by the square law whatever the
    // options say (docs/semantics.md §17).
    let mapping = pattern.intensityLaw == .amplitudeSquareRoot ? IntensityMapping.square : options.intensityMapping
    map = PerceptualMap.shared(actuator: actuator, frequencyControl: actuator.frequencyControl, mapping: mapping)
    period = profile.framePeriod
    // Shared, not copied, unless audio events must go (a million events copy slowly).
    events = pattern.events.allSatisfy(\.type.isHaptic) ? pattern.events : pattern.events.filter(\.type.isHaptic)
    startFrames = events.map { Int(($0.time / profile.framePeriod).rounded(.toNearestOrEven)) }
    controlSource = HapticPattern(parameters: pattern.parameters, curves: pattern.curves)
    scope = pattern.intensityControlScope
    controls = ControlTimeline(pattern)
    intensityControl = ControlCursor(.hapticIntensityControl, pattern: pattern)
    sharpnessControl = ControlCursor(.hapticSharpnessControl, pattern: pattern)
    lastFrequency = map.frequency(sharpness: 0.5)
    windows = TransientWindows(
      kind: actuator.kind, map: map, brakes: profile.amplitudeSigned && profile.shaping == .host)
    usesRamps = options.controlRate
    leadFrames = Swift.max(1, Int((Self.transientLeadSeconds / profile.framePeriod).rounded()))
    nextTransient = events.firstIndex { $0.type == .hapticTransient } ?? events.count
  }

  /// How long before a transient the continuous drive is ducked (transient priority,
  /// docs/semantics.md §15.4): time for the shaper to brake it, so every transient starts
  /// from near rest and feels the same whatever the vibration it interrupts.
  public static let transientLeadSeconds = 0.010

  /// Frame `k` with nothing sounding, flagged when a transient is near (§15.4).
  private func silence(at k: Int) -> FrameTarget {
    var silent = FrameTarget.silent(hz: lastFrequency)
    silent.transientAhead = k >= leadStart
    silent.transientNext = leadStart <= k && k == leadStart + leadFrames - 1
    return silent
  }

  /// The first frame of the duck ahead of the next transient (`Int.max` when none is left).
  private var leadStart: Int {
    nextTransient == events.count ? Int.max : startFrames[nextTransient] - leadFrames
  }

  /// Moves the next-transient cursor past transients that started by frame `k`.
  private mutating func passTransients(upTo k: Int) {
    while nextTransient < events.count
      && (events[nextTransient].type != .hapticTransient || startFrames[nextTransient] <= k)
    {
      nextTransient += 1
    }
  }

  /// The frame the next voice starts on (`Int.max` when every event has started).
  private var nextStartFrame: Int { nextEvent == events.count ? Int.max : startFrames[nextEvent] }

  /// True once every event has started and ended (nothing will sound again).
  public var isFinished: Bool { active.isEmpty && nextEvent == events.count }

  /// Adds a dynamic parameter step (a player's `sendParameters`); it takes effect from its
  /// time, which should not lie before the current frame.
  ///
  /// Of the same control's steps already past (before the current frame) only the last is kept:
  /// it is the one in force now, and the ones before it can never apply again (frames only move
  /// on). Without this every step ever sent stayed, and each insert rebuilt them all: a client
  /// streaming intensity at 60 Hz made every change cost more, minute by minute (found by the
  /// board server's load measurement: 29 % of a core after 30 s, 40 % after 150 s).
  public mutating func insert(_ parameter: DynamicParameter) {
    let now = Double(frameIndex) * period
    var kept = controlSource.parameters
    // The past step in force now: the latest in time, the last given among equal times (the
    // timeline's stable order).
    let past = kept.indices.filter { kept[$0].id == parameter.id && kept[$0].time < now }
    if let last = past.max(by: { (kept[$0].time, $0) < (kept[$1].time, $1) }) {
      let lastTime = kept[last].time
      kept = kept.indices.filter { $0 == last || kept[$0].id != parameter.id || kept[$0].time > lastTime }.map { kept[$0] }
    }
    controlSource = HapticPattern(parameters: kept + [parameter], curves: controlSource.curves)
    rebuildControls(parameter.id)
  }

  /// Adds a parameter curve (a player's `scheduleParameterCurve`).
  public mutating func insert(_ curve: ParameterCurve) {
    controlSource = HapticPattern(parameters: controlSource.parameters, curves: controlSource.curves + [curve])
    rebuildControls(curve.id)
  }

  /// The dynamic parameter steps kept (tests: they stay bounded however many are sent).
  var controlStepCount: Int { controlSource.parameters.count }

  /// After control `id` changed: the target is evaluated again from the current frame, the
  /// timeline is built again when a voice next needs it, and `id`'s cursor now (the other's
  /// entries did not change).
  private mutating func rebuildControls(_ id: DynamicParameterID) {
    steadyUntil = frameIndex
    ramp.cancel(at: frameIndex)
    controls = nil
    if id == .hapticIntensityControl { intensityControl = ControlCursor(id, pattern: controlSource) }
    if id == .hapticSharpnessControl { sharpnessControl = ControlCursor(id, pattern: controlSource) }
  }

  /// How many frames after the last one are certain to repeat its target.
  var steadyFramesLeft: Int { steadyUntil == Int.max ? Int.max : Swift.max(steadyUntil - frameIndex, 0) }

  /// Moves past one frame of a steady stretch (``steadyFramesLeft`` > 0) without producing
  /// its target (the last one); returns its index.
  @inline(__always)
  mutating func skipSteadyFrame() -> Int {
    frameIndex += 1
    return frameIndex - 1
  }

  /// The target of the next frame.
  @inline(__always)
  public mutating func next() -> FrameTarget {
    let k = frameIndex
    frameIndex += 1
    if k < steadyUntil { return lastTarget }
    if k < ramp.end && k > ramp.start {
      lastTarget = ramp.target(at: k)
      return lastTarget
    }
    if active.isEmpty && (nextEvent == events.count || startFrames[nextEvent] > k) {
      lastTarget = .silent(hz: lastFrequency)
      steadyUntil = nextStartFrame
      // Another player's continuous drive on the same actuator ducks ahead of this one's
      // transient too: the lead frames carry the flags, one by one.
      if leadStart <= k {
        lastTarget.transientAhead = true
        lastTarget.transientNext = k == leadStart + leadFrames - 1
        steadyUntil = k + 1
      } else {
        steadyUntil = Swift.min(steadyUntil, leadStart)
      }
      return lastTarget
    }
    admitVoices(upTo: k)
    if k >= nextVoiceEnd { removeEndedVoices(at: k) }
    if nextTransient < events.count && startFrames[nextTransient] <= k { passTransients(upTo: k) }
    let t = Double(k) * period
    // The end of a ramp was evaluated exactly when the ramp began.
    lastTarget = ramp.end > 0 && k == ramp.end ? ramp.to : mix(at: t, frame: k)
    steadyUntil = steadyEnd(after: k, at: t)
    if usesRamps && steadyUntil == k + 1 && k >= ramp.retryAt { beginRamp(at: k, t: t) }
    return lastTarget
  }

  /// Tries a ramp from frame `k` (whose exact target is `lastTarget`): finds how far the
  /// target stays smooth, evaluates the midpoint and the end exactly and keeps the ramp when
  /// the midpoint is close to the interpolation (``TargetRamp``).
  private mutating func beginRamp(at k: Int, t: Double) {
    var limit = Swift.min(nextVoiceEnd, nextStartFrame)
    if leadStart > k { limit = Swift.min(limit, leadStart) } else if leadStart != Int.max { return }
    if !intensityControl.isConstant {
      limit = Swift.min(limit, Self.frame(before: intensityControl.pieceEndTime, period: period))
    }
    if !sharpnessControl.isConstant {
      limit = Swift.min(limit, Self.frame(before: sharpnessControl.pieceEndTime, period: period))
    }
    var frames = ramp.length(from: k, before: limit)
    guard frames > 0 else { return }
    let period = period
    guard !active.contains(where: { $0.bends(from: k, through: k + frames, framePeriod: period) }) else { return }
    let from = lastTarget
    // The end first, then midpoints: a refused ramp is retried at half its length with its
    // midpoint as the end (every frame lies on the same smooth stretch, in any order).
    var to = mix(at: Double(k + frames) * period, frame: k + frames)
    while frames >= TargetRamp.minFrames {
      let mid = mix(at: Double(k + frames / 2) * period, frame: k + frames / 2)
      if ramp.begin(at: k, frames: frames, from: from, mid: mid, to: to) {
        lastFrequency = to.hz
        return
      }
      frames /= 2
      to = mid
    }
    // Exact frames follow: the mix's last frequency must be this frame's again.
    ramp.refuse(at: k)
    lastFrequency = from.hz
  }

  /// The first frame after `k` whose target may differ from frame k's (conservative: frames
  /// before it certainly repeat it).
  @inline(__always)
  private func steadyEnd(after k: Int, at t: Double) -> Int {
    var end = Swift.min(nextVoiceEnd, nextStartFrame)
    if leadStart > k { end = Swift.min(end, leadStart) } else if leadStart != Int.max { return k + 1 }
    guard end > k + 1 else { return k + 1 }
    // Controls first (cheap, and while a curve moves nothing else matters); they only reach
    // continuous voices.
    var controlsEnd = Int.max
    if !intensityControl.isConstant {
      controlsEnd = Self.frame(before: intensityControl.constant(from: t), period: period)
    }
    if !sharpnessControl.isConstant {
      controlsEnd = Swift.min(controlsEnd, Self.frame(before: sharpnessControl.constant(from: t), period: period))
    }
    for index in active.indices where active[index].kind == .continuous {
      guard k >= active[index].plateau.lowerBound else { return k + 1 }
      end = Swift.min(end, active[index].plateau.upperBound, controlsEnd)
      if end <= k + 1 { return k + 1 }
    }
    return end
  }

  /// The first frame index j with j × period possibly at or after `time` (conservative by one
  /// frame against rounding); `Int.max` for an infinite time.
  @inline(__always)
  static func frame(before time: Double, period: Double) -> Int {
    guard time.isFinite else { return time > 0 ? Int.max : Int.min }
    let frames = (time / period).roundedDownFast - 1
    return frames >= Double(Int.max / 2) ? Int.max : Int(Swift.max(frames, -1))
  }

  /// Drops the voices that ended by frame `k`, keeping the others in order (one copy per
  /// voice that moves; `removeAll(where:)` swaps, three copies of a voice each).
  private mutating func removeEndedVoices(at k: Int) {
    var kept = 0
    var earliest = Int.max
    for index in active.indices where active[index].endFrame > k {
      if kept != index { active[kept] = active[index] }
      earliest = Swift.min(earliest, active[kept].endFrame)
      kept += 1
    }
    active.removeLast(active.count - kept)
    nextVoiceEnd = earliest
  }

  private mutating func admitVoices(upTo k: Int) {
    while nextEvent < events.count {
      guard startFrames[nextEvent] <= k else { break }
      let index = nextEvent
      nextEvent += 1
      let timeline = controls ?? ControlTimeline(controlSource)
      controls = timeline
      if let voice = Voice.make(events[index], controls: timeline, framePeriod: period, windows: windows, scope: scope),
        voice.endFrame > k
      {
        active.append(voice)
        nextVoiceEnd = Swift.min(nextVoiceEnd, voice.endFrame)
      }
    }
  }

  /// Voices add in power (a = √Σ aᵢ², incoherent vibrations); the frequency is the power-weighted
  /// mean of the voices' frequencies.
  @inline(__always)
  private mutating func mix(at t: Double, frame k: Int) -> FrameTarget {
    guard !active.isEmpty else { return silence(at: k) }
    let intensityScale = intensityControl.isConstant ? 1 : intensityControl.value(at: t)
    let sharpnessOffset = sharpnessControl.isConstant ? 0 : sharpnessControl.value(at: t)
    var power = 0.0
    var weightedHz = 0.0
    var transientPower = 0.0
    var transientWeightedHz = 0.0
    var crispness = 0.0
    let amplitudeOnly = map.band == nil
    for index in active.indices {
      let intensity: Double
      let sharpness: Double
      switch active[index].kind {
      case .transient:
        intensity = Swift.min(active[index].baseIntensity * active[index].onsetControl, 1)
        sharpness = active[index].baseSharpness
        crispness = 1
      case .continuous:
        let envelope = active[index].envelope(at: Double(k - active[index].startFrame) * period)
        intensity = Swift.min(active[index].baseIntensity * intensityScale, 1) * envelope
        sharpness = Swift.min(Swift.max(active[index].baseSharpness + sharpnessOffset, 0), 1)
        crispness = Swift.max(crispness, amplitudeOnly ? sharpness : 1)
      }
      let hz = active[index].kind == .transient
        ? windows.frequency(sharpness: sharpness) : map.frequency(sharpness: sharpness)
      if intensity != active[index].cachedIntensity || hz != active[index].cachedHz {
        active[index].cachedIntensity = intensity
        active[index].cachedHz = hz
        if hz != active[index].cachedThresholdHz {
          active[index].cachedThresholdHz = hz
          active[index].cachedThreshold = map.threshold(at: hz)
          active[index].cachedLevel = map.sensationLevel(at: hz)
        }
        let g = map.acceleration(
          intensity: intensity, threshold: active[index].cachedThreshold, level: active[index].cachedLevel)
        active[index].cachedAcceleration = active[index].kind == .transient ? windows.target(g, sharpness: sharpness) : g
      }
      let g = active[index].cachedAcceleration
      power += g * g
      weightedHz += g * g * hz
      if active[index].kind == .transient {
        transientPower += g * g
        transientWeightedHz += g * g * hz
      }
    }
    // Voices at zero intensity sound like none: the frame is a silence (the duck ahead of a
    // transient and the brake to rest apply as if no event were there).
    guard power > 0 else { return silence(at: k) }
    // One voice (the common case) or an amplitude-only board: no weighting needed.
    let hz = active.count == 1 || amplitudeOnly ? active[0].cachedHz : weightedHz / power
    lastFrequency = hz
    return FrameTarget(
      power: power, weightedHz: weightedHz, hz: hz, crispness: crispness, hasVoices: true,
      transientPower: transientPower, transientWeightedHz: transientWeightedHz, transientAhead: k >= leadStart,
      transientNext: leadStart <= k && k == leadStart + leadFrames - 1)
  }
}
