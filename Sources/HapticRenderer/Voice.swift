import HapticCore

/// One haptic event being played: its envelope and parameters, in frames.
struct Voice: Sendable {
  enum Kind: Sendable {
    case transient
    case continuous
  }

  let kind: Kind
  /// First frame the voice contributes to.
  let startFrame: Int
  /// First frame after the voice (it contributes to `startFrame..<endFrame`).
  let endFrame: Int
  /// The event's own intensity (before the intensity control).
  let baseIntensity: Double
  /// The event's own sharpness (before the sharpness control).
  let baseSharpness: Double
  /// Transients: the intensity control sampled at onset (they do not follow later changes).
  let onsetControl: Double
  /// Continuous envelope, in seconds from the start frame.
  let attack: Double
  let decay: Double
  let release: Double
  let sustained: Bool
  /// Seconds from the start frame at which the release begins (∞ if never).
  let releaseStart: Double
  /// The envelope value when the release begins.
  let releaseLevel: Double
  /// Frames (conservatively) on which the envelope holds at 1: a sustained event between its
  /// attack and its release; empty otherwise.
  let plateau: Range<Int>
  /// The last (intensity, frequency) mapped and its acceleration, so an unchanged voice costs
  /// no `pow` per frame.
  var cachedIntensity = -1.0
  var cachedHz = -1.0
  var cachedAcceleration = 0.0
  /// The detection threshold (dB) at `cachedThresholdHz` and the sensation level rated drive
  /// reaches there.
  var cachedThresholdHz = -1.0
  var cachedThreshold = 0.0
  var cachedLevel = 0.0

  /// The envelope (0…1) at `s` seconds after the voice start; transients are flat.
  @inline(__always)
  func envelope(at s: Double) -> Double {
    guard kind == .continuous else { return 1 }
    if s >= releaseStart {
      guard release > 0 else { return 0 }
      return max(0, releaseLevel * (1 - (s - releaseStart) / release))
    }
    return preReleaseEnvelope(s)
  }

  /// Whether the envelope may bend (change phase: attack → decay or plateau, decay → end,
  /// release) anywhere from frame `first` − 1 to frame `last` + 1.
  func bends(from first: Int, through last: Int, framePeriod: Double) -> Bool {
    guard kind == .continuous else { return false }
    let low = Double(first - startFrame - 1) * framePeriod
    let high = Double(last - startFrame + 1) * framePeriod
    func within(_ s: Double) -> Bool { s >= low && s <= high }
    return within(attack) || (!sustained && within(attack + decay)) || within(releaseStart)
  }

  private func preReleaseEnvelope(_ s: Double) -> Double {
    Self.attackDecay(s, attack: attack, decay: decay, sustained: sustained)
  }

  /// Attack (linear rise) then, unless sustained, linear decay to zero.
  static func attackDecay(_ s: Double, attack: Double, decay: Double, sustained: Bool) -> Double {
    if s < attack { return s / attack }
    if sustained { return 1 }
    guard decay > 0 else { return 0 }
    return max(0, 1 - (s - attack) / decay)
  }
}

extension Voice {
  /// Builds the voice of a haptic event, or `nil` for audio events and continuous events that
  /// last no frame at all.
  ///
  /// - Parameters:
  ///   - event: the event.
  ///   - controls: for controls sampled once (envelope times at onset and release, the
  ///     transient's intensity).
  ///   - framePeriod: seconds per frame.
  ///   - windows: the transient drive window (seconds) for a sharpness.
  ///   - scope: whether the intensity control scales transients (``HapticPattern/intensityControlScope``).
  static func make(
    _ event: HapticEvent, controls: ControlTimeline, framePeriod: Double, windows: TransientWindows,
    scope: HapticPattern.IntensityControlScope = .allHapticEvents
  ) -> Voice? {
    guard event.type.isHaptic else { return nil }
    let start = Int((event.time / framePeriod).rounded(.toNearestOrEven))
    let intensity = HapticCore.EventParameterID.hapticIntensity.clamp(event.value(of: .hapticIntensity))
    let sharpness = HapticCore.EventParameterID.hapticSharpness.clamp(event.value(of: .hapticSharpness))
    if event.type == .hapticTransient {
      let control = scope == .allHapticEvents ? controls.value(.hapticIntensityControl, at: event.time) : 1
      let window = windows.seconds(sharpness: sharpness)
      let frames = max(1, Int((window / framePeriod).rounded()))
      return Voice(
        kind: .transient, startFrame: start, endFrame: start + frames, baseIntensity: intensity,
        baseSharpness: sharpness, onsetControl: control, attack: 0, decay: 0, release: 0,
        sustained: true, releaseStart: .infinity, releaseLevel: 1, plateau: start..<(start + frames))
    }
    let attack = EnvelopeTiming.seconds(controls.effectiveValue(.attackTime, of: event, at: event.time))
    let decay = EnvelopeTiming.seconds(controls.effectiveValue(.decayTime, of: event, at: event.time))
    let sustained = event.isSustained
    // Sustained events release at their duration (0 when missing). Non-sustained ones end when
    // the decay bottoms out, or release early if their duration cuts the decay short.
    let natural = attack + decay
    let duration = event.duration ?? (sustained ? 0 : .infinity)
    var releaseStart = duration
    if !sustained && duration >= natural { releaseStart = .infinity }
    let releaseTime = releaseStart.isFinite ? event.time + releaseStart : event.time
    let release = EnvelopeTiming.seconds(controls.effectiveValue(.releaseTime, of: event, at: releaseTime))
    let releaseLevel = releaseStart.isFinite
      ? attackDecay(releaseStart, attack: attack, decay: decay, sustained: sustained) : 0
    let length = releaseStart.isFinite ? releaseStart + (releaseLevel > 0 ? release : 0) : natural
    let frames = Int((length / framePeriod).rounded(.up))
    guard frames > 0 else { return nil }
    // Frame j lies on the plateau when attack ≤ (j − start)·T < releaseStart; one frame of
    // margin at each end absorbs rounding.
    var plateau = Int.max..<Int.max
    if sustained && releaseStart.isFinite && releaseStart > attack {
      let first = start + Int((attack / framePeriod).rounded(.up)) + 1
      let end = start + Swift.min(PatternVoices.frame(before: releaseStart, period: framePeriod), frames)
      if end > first { plateau = first..<end }
    }
    return Voice(
      kind: .continuous, startFrame: start, endFrame: start + frames, baseIntensity: intensity,
      baseSharpness: sharpness, onsetControl: 1, attack: attack, decay: decay, release: release,
      sustained: sustained, releaseStart: releaseStart, releaseLevel: releaseLevel, plateau: plateau)
  }
}
