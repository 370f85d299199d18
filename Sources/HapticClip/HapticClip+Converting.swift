public import HapticCore

extension HapticClip {
  /// How far (in intensity and sharpness, 0…1) an Android timeline's straight lines may stray
  /// from the pattern's curves before another point is added.
  public static let conversionTolerance = 0.002
  /// How far (in intensity and sharpness, 0…1) a clip's straight lines between breakpoints —
  /// in amplitude and frequency, as Meta's renderer plays them — may stray from the pattern's
  /// curves before another breakpoint is added: tighter than an Android timeline's, because a
  /// pattern's straight intensity line is a curve in amplitude, and a trip to `.haptic` and back
  /// should ask the board for the same power within 0.5 % (0.0003 of intensity is about 0.01 dB).
  public static let clipTolerance = 0.0003

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
  public static func converting(_ pattern: HapticPattern, tolerance: Double = clipTolerance) -> ClipConversion {
    let sampler = PatternSampler(pattern)
    let trace = ClipTrace(pattern, sampler: sampler, tolerance: tolerance)
    let accents = sampler.transients(of: pattern).map {
      (time: $0.time, emphasis: Emphasis(amplitude: $0.intensity * $0.intensity, frequency: $0.sharpness))
    }
    let amplitude = Self.emphasized(trace.amplitude(until: trace.end), accents)
    var clip = HapticClip(amplitude: amplitude, frequency: trace.frequency(until: trace.end))
    var notes = Self.lossNotes(pattern, sampler: sampler)
    clip.metadata = Self.metadata(pattern, notes: &notes)
    return ClipConversion(clip: clip, notes: notes)
  }

  /// The amplitude envelope with each accent (in time order) on a breakpoint of its own at its
  /// time: after the points at or before it, between two points holding the envelope's value
  /// there, so that the emphasized point (whose intensity is ducked × 0.8 when played) has no
  /// width and the envelope goes on unchanged; over silence a single point at 0. One pass.
  static func emphasized(
    _ amplitude: [AmplitudeBreakpoint], _ accents: [(time: Double, emphasis: Emphasis)]
  ) -> [AmplitudeBreakpoint] {
    var result: [AmplitudeBreakpoint] = []
    result.reserveCapacity(amplitude.count + 3 * accents.count)
    var next = 0
    for (time, emphasis) in accents {
      while next < amplitude.count && amplitude[next].time <= time {
        result.append(amplitude[next])
        next += 1
      }
      // The envelope's value at `time`: every point kept so far lies on it.
      let level: Double
      switch (result.last, next < amplitude.count ? amplitude[next] : nil) {
      case (let a?, _) where a.time == time: level = a.amplitude
      case (let a?, let b?): level = a.amplitude + (b.amplitude - a.amplitude) * (time - a.time) / (b.time - a.time)
      case (nil, let b?): level = b.amplitude
      default: level = 0
      }
      let holds = result.last.map { $0.time == time && $0.amplitude == level } ?? false
      // Over silence the point at that time, if it is free, takes the emphasis itself.
      if level == 0 && holds && result[result.count - 1].emphasis == nil {
        result[result.count - 1].emphasis = emphasis
        continue
      }
      if level > 0 && !holds { result.append(AmplitudeBreakpoint(time: time, amplitude: level)) }
      result.append(AmplitudeBreakpoint(time: time, amplitude: min(level, emphasis.amplitude), emphasis: emphasis))
      if level > 0 { result.append(AmplitudeBreakpoint(time: time, amplitude: level)) }
    }
    result += amplitude[next...]
    return result
  }

}
