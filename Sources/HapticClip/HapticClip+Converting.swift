public import HapticCore

extension HapticClip {
  /// How far (in intensity and sharpness, 0…1) the clip's straight lines between breakpoints
  /// may stray from the pattern's curves before another breakpoint is added.
  public static let conversionTolerance = 0.002

  /// The clip of a pattern (AHAP → `.haptic`), played here as the pattern is (docs/semantics.md
  /// §17.2): the continuous events' mix — intensity × intensity control × envelope, sharpness
  /// + sharpness control — becomes the amplitude (intensity²) and frequency (sharpness²)
  /// envelopes, with a breakpoint at every start, end, envelope corner and control point and
  /// more where a curve bends; each transient becomes an emphasis (intensity² at its onset,
  /// its sharpness) on a breakpoint of its own, so the continuous envelope around it is kept.
  ///
  /// The notes list what could not be carried as it was: audio events and overlapping
  /// continuous events (mixed into one envelope) are lost; envelope shapes and dynamic
  /// parameters are rendered into the envelopes; metadata without a field is dropped.
  public static func converting(_ pattern: HapticPattern, tolerance: Double = conversionTolerance) -> ClipConversion {
    let sampler = PatternSampler(pattern)
    let trace = ClipTrace(pattern, sampler: sampler, tolerance: tolerance)
    var amplitude = trace.amplitude(until: trace.end)
    for transient in sampler.transients(of: pattern) {
      Self.emphasize(
        &amplitude, at: transient.time, Emphasis(amplitude: transient.intensity * transient.intensity, frequency: transient.sharpness))
    }
    var clip = HapticClip(amplitude: amplitude, frequency: trace.frequency(until: trace.end))
    var notes = Self.lossNotes(pattern, sampler: sampler)
    clip.metadata = Self.metadata(pattern, notes: &notes)
    return ClipConversion(clip: clip, notes: notes)
  }

  /// Puts an emphasis on a breakpoint of its own at `time`: after the points at or before it,
  /// between two points holding the envelope's value there, so that the emphasized point (whose
  /// intensity is ducked × 0.8 when played) has no width and the envelope goes on unchanged.
  static func emphasize(_ amplitude: inout [AmplitudeBreakpoint], at time: Double, _ emphasis: Emphasis) {
    let index = amplitude.firstIndex { $0.time > time } ?? amplitude.endIndex
    let level: Double
    if index == amplitude.endIndex {
      level = 0
    } else if index == 0 {
      level = amplitude[0].amplitude
    } else {
      let (a, b) = (amplitude[index - 1], amplitude[index])
      level = a.time == time ? a.amplitude : a.amplitude + (b.amplitude - a.amplitude) * (time - a.time) / (b.time - a.time)
    }
    let holds = index > 0 && amplitude[index - 1].time == time && amplitude[index - 1].amplitude == level
    // Over silence the point at that time, if it is free, takes the emphasis itself.
    if level == 0 && holds && amplitude[index - 1].emphasis == nil {
      amplitude[index - 1].emphasis = emphasis
      return
    }
    var inserted: [AmplitudeBreakpoint] = []
    if level > 0 && !holds { inserted.append(AmplitudeBreakpoint(time: time, amplitude: level)) }
    inserted.append(AmplitudeBreakpoint(time: time, amplitude: min(level, emphasis.amplitude), emphasis: emphasis))
    if level > 0 { inserted.append(AmplitudeBreakpoint(time: time, amplitude: level)) }
    amplitude.insert(contentsOf: inserted, at: index)
  }
}
