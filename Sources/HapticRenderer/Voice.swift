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
  /// Continuous envelope, in seconds from the start frame (unused by transients: flat).
  let shape: EventEnvelope?
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
    guard let shape else { return 1 }
    return shape.value(at: s)
  }

  /// Whether the envelope may bend (change phase: attack → decay or plateau, decay → end,
  /// release) anywhere from frame `first` − 1 to frame `last` + 1.
  func bends(from first: Int, through last: Int, framePeriod: Double) -> Bool {
    guard let shape else { return false }
    let low = Double(first - startFrame - 1) * framePeriod
    let high = Double(last - startFrame + 1) * framePeriod
    func within(_ s: Double) -> Bool { s >= low && s <= high }
    return within(shape.attack) || (!shape.sustained && within(shape.attack + shape.decay)) || within(shape.releaseStart)
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
        baseSharpness: sharpness, onsetControl: control, shape: nil, plateau: start..<(start + frames))
    }
    let shape = EventEnvelope(event, controls: controls)
    let length = shape.length
    // Up to a whole frame, less float noise: 0.1140000000000001 s is 114 frames of 1 ms, not 115.
    let frames = Int((length / framePeriod - 1e-9).rounded(.up))
    guard frames > 0 else { return nil }
    // Frame j lies on the plateau when attack ≤ (j − start)·T < releaseStart; one frame of
    // margin at each end absorbs rounding.
    var plateau = Int.max..<Int.max
    if shape.sustained && shape.releaseStart.isFinite && shape.releaseStart > shape.attack {
      let first = start + Int((shape.attack / framePeriod).rounded(.up)) + 1
      let end = start + Swift.min(PatternVoices.frame(before: shape.releaseStart, period: framePeriod), frames)
      if end > first { plateau = first..<end }
    }
    return Voice(
      kind: .continuous, startFrame: start, endFrame: start + frames, baseIntensity: intensity,
      baseSharpness: sharpness, onsetControl: 1, shape: shape, plateau: plateau)
  }
}
