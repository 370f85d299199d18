import HapticCore

/// A pattern's continuous haptic events evaluated at any moment, as the renderer plays them
/// (docs/semantics.md §11.4, §11.8, §11.9) but before any board: each event's intensity ×
/// the intensity control (at most 1) × its envelope, and its sharpness + the sharpness control.
struct PatternSampler {
  struct Sound {
    let event: HapticEvent
    let envelope: EventEnvelope
    let end: Double
  }

  /// What sounds at a moment: the mixed intensity and sharpness (NaN when no event is active),
  /// and how many events are active (possibly at zero intensity).
  struct Sample {
    var intensity: Double
    var sharpness: Double
    var active: Int
  }

  /// A hair before a moment: where the left-hand value of a step is read.
  static let before = 1e-9

  /// The continuous events that sound at all, by start time.
  let sounds: [Sound]
  let controls: ControlTimeline
  /// The longest sound, seconds (a moment's candidates start at most this long before it).
  private let longest: Double

  init(_ pattern: HapticPattern) {
    let controls = ControlTimeline(pattern)
    self.controls = controls
    sounds = pattern.events.filter { $0.type == .hapticContinuous }.compactMap { event in
      let envelope = EventEnvelope(event, controls: controls)
      let length = envelope.length
      guard length > 0, length.isFinite else { return nil }
      return Sound(event: event, envelope: envelope, end: event.time + length)
    }
    longest = sounds.map { $0.end - $0.event.time }.max() ?? 0
  }

  /// The sounds that may be active at `t`: those starting within ``longest`` before it.
  private func candidates(at t: Double) -> ArraySlice<Sound> {
    func firstStarting(after time: Double, orAt: Bool) -> Int {
      var low = 0
      var high = sounds.count
      while low < high {
        let mid = (low + high) / 2
        let start = sounds[mid].event.time
        if start < time || (orAt && start == time) { low = mid + 1 } else { high = mid }
      }
      return low
    }
    return sounds[firstStarting(after: t - longest, orAt: false)..<firstStarting(after: t, orAt: true)]
  }

  /// The times where the mix may bend or step: event starts and ends, envelope corners, and
  /// the control points and steps of the intensity and sharpness controls.
  func knots(in pattern: HapticPattern) -> [Double] {
    var knots: [Double] = []
    for sound in sounds {
      knots.append(sound.event.time)
      knots.append(sound.end)
      knots += sound.envelope.corners.map { sound.event.time + $0 }
    }
    let ids: Set<DynamicParameterID> = [.hapticIntensityControl, .hapticSharpnessControl]
    for parameter in pattern.parameters where ids.contains(parameter.id) { knots.append(parameter.time) }
    for curve in pattern.curves where ids.contains(curve.id) {
      knots += curve.controlPoints.map { curve.time + $0.time }
    }
    return Array(Set(knots.filter { $0.isFinite && $0 >= 0 })).sorted()
  }

  /// The mix at `t` (events that start at `t` sound; those ending at `t` do not).
  func sample(at t: Double) -> Sample {
    let scale = controls.value(.hapticIntensityControl, at: t)
    let offset = controls.value(.hapticSharpnessControl, at: t)
    var powers = 0.0
    var weighted = 0.0
    var plain = 0.0
    var active = 0
    for sound in candidates(at: t) where t < sound.end {
      let base = EventParameterID.hapticIntensity.clamp(sound.event.value(of: .hapticIntensity))
      let intensity = min(base * scale, 1) * sound.envelope.value(at: t - sound.event.time)
      let sharpness = min(max(EventParameterID.hapticSharpness.clamp(sound.event.value(of: .hapticSharpness)) + offset, 0), 1)
      // Drive goes with intensity² (amplitude); incoherent vibrations add in power.
      let power = intensity * intensity * intensity * intensity
      powers += power
      weighted += power * sharpness
      plain += sharpness
      active += 1
    }
    guard active > 0 else { return Sample(intensity: 0, sharpness: .nan, active: 0) }
    let sharpness = powers > 0 ? weighted / powers : plain / Double(active)
    return Sample(intensity: min(powers.squareRoot().squareRoot(), 1), sharpness: sharpness, active: active)
  }

  /// A transient as it plays: its onset, its intensity (× the intensity control at onset in
  /// patterns whose control scales transients), its sharpness (no control reaches it).
  struct Transient {
    let time: Double
    let intensity: Double
    let sharpness: Double
  }

  /// The audible transients of `pattern`, in time order.
  func transients(of pattern: HapticPattern) -> [Transient] {
    pattern.events.filter { $0.type == .hapticTransient }.compactMap { event in
      let base = EventParameterID.hapticIntensity.clamp(event.value(of: .hapticIntensity))
      let control = pattern.intensityControlScope == .allHapticEvents ? controls.value(.hapticIntensityControl, at: event.time) : 1
      let intensity = min(base * control, 1)
      guard intensity > 0 else { return nil }
      return Transient(time: event.time, intensity: intensity, sharpness: EventParameterID.hapticSharpness.clamp(event.value(of: .hapticSharpness)))
    }
  }
}
