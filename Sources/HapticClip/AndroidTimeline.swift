import HapticCore

/// A pattern's mix, millisecond by millisecond, as Android effects need it (``AndroidEffect``):
/// intensity and sharpness from the traced continuous mix, transients as bursts.
struct AndroidTimeline {
  /// Per millisecond (sampled at its middle): intensity and sharpness.
  private(set) var intensity: [Double] = []
  private(set) var sharpness: [Double] = []
  /// The transients, each played as a burst.
  let bursts: [PatternSampler.Transient]
  /// Notes shared by both forms (audio, overlaps, baked controls; metadata is not carried and
  /// not noted).
  let notes: [ClipConversion.Note]
  /// When something first sounds (the waveform loses its sharpness from there), if ever.
  let firstSound: Double?

  init(_ pattern: HapticPattern, tolerance: Double) {
    let sampler = PatternSampler(pattern)
    let trace = ClipTrace(pattern, sampler: sampler, tolerance: tolerance)
    bursts = sampler.transients(of: pattern)
    notes = HapticClip.lossNotes(pattern, sampler: sampler)
    let line = trace.intensityLine(until: trace.end)
    let tone = trace.sharpnessLine(until: trace.end)
    let burstEnd = bursts.map { $0.time + Double(AndroidEffect.burstMilliseconds) / 1000 }.max() ?? 0
    let count = Int((max(trace.end, burstEnd) * 1000).rounded(.up))
    var firstSound: Double?
    var levels = LineCursor(line, empty: 0)
    var tones = LineCursor(tone, empty: 0.5)
    for ms in 0..<count {
      let t = (Double(ms) + 0.5) / 1000
      let level = levels.value(at: t)
      intensity.append(level)
      sharpness.append(tones.value(at: t))
      if level > 0, firstSound == nil { firstSound = t }
    }
    // Ducks first, then the bursts over them (a burst is never ducked by its neighbour's).
    for burst in bursts {
      let onset = Int((burst.time * 1000).rounded())
      let start = max(0, onset - AndroidEffect.duckBeforeMilliseconds)
      let end = min(count, onset + AndroidEffect.burstMilliseconds + AndroidEffect.duckAfterMilliseconds)
      for ms in start..<max(start, end) { intensity[ms] = 0 }
    }
    for burst in bursts {
      let onset = Int((burst.time * 1000).rounded())
      let first = max(0, onset)
      for ms in first..<max(first, min(count, onset + AndroidEffect.burstMilliseconds)) {
        // Overlapping bursts: the later one takes over where it starts.
        intensity[ms] = burst.intensity
        sharpness[ms] = burst.sharpness
      }
      if firstSound == nil || burst.time < firstSound! { firstSound = burst.time }
    }
    self.firstSound = firstSound
  }

  /// `createWaveform`'s timings and amplitudes: runs of one amplitude (intensity² × 255, at least
  /// 1 when not silent), trailing silence dropped.
  func waveform() -> (timings: [Int], amplitudes: [Int]) {
    var timings: [Int] = []
    var amplitudes: [Int] = []
    for level in intensity {
      let drive = level * level * 255
      let amplitude = level > 0 ? max(1, Int(drive.rounded())) : 0
      if amplitudes.last == amplitude {
        timings[timings.count - 1] += 1
      } else {
        timings.append(1)
        amplitudes.append(amplitude)
      }
    }
    if amplitudes.last == 0 {
      timings.removeLast()
      amplitudes.removeLast()
    }
    return (timings, amplitudes)
  }

  /// The basic envelope: the millisecond samples thinned to straight ramps, ending at 0, and
  /// when the first change too fast for the shortest ramp was smoothed (seconds), if any.
  func envelope() -> (initialSharpness: Double, points: [AndroidEffect.ControlPoint], smoothed: Double?) {
    // Two values per time: thin on intensity and sharpness together.
    var kept: [Int] = []
    for ms in intensity.indices {
      if ms + 1 == intensity.count {
        kept.append(ms)
        break
      }
      guard let last = kept.last else {
        kept.append(ms)
        continue
      }
      let next = ms + 1
      func straight(_ values: [Double]) -> Bool {
        let expected = values[last] + (values[next] - values[last]) * Double(ms - last) / Double(next - last)
        return abs(expected - values[ms]) <= 1e-9
      }
      if !(straight(intensity) && straight(sharpness)) { kept.append(ms) }
    }
    // Every ramp between AndroidEffect's shortest and longest. A point closer than the shortest
    // to the last one kept is reached late, at the shortest ramp, with the value there — unless
    // the next point comes by then, which takes over. Longer ramps are cut. The builder starts at intensity 0 and
    // the initial sharpness, at 0 ms.
    let shortest = AndroidEffect.shortestRampMilliseconds
    let initial = sharpness.first ?? 0.5
    var points: [AndroidEffect.ControlPoint] = []
    var from = (ms: 0, intensity: 0.0, sharpness: initial)
    var smoothed: Double?
    for (index, ms) in kept.enumerated() {
      let at = max(ms, from.ms + shortest)
      if at > ms && smoothed == nil && ms > 0 { smoothed = Double(ms) / 1000 }
      if index + 1 < kept.count && kept[index + 1] <= at { continue }
      // Reached late, the point takes the timeline's value where it is reached.
      let sample = min(at, intensity.count - 1)
      let to = (ms: at, intensity: intensity[sample], sharpness: sharpness[sample])
      points += Self.ramp(from: from, to: to)
      from = to
    }
    if from.intensity > 0 {
      points += Self.ramp(from: from, to: (from.ms + shortest, 0, from.sharpness))
    }
    return (initial, Self.straightened(points, start: (0, initial)), smoothed)
  }

  /// `points` without those a straight ramp through their neighbours passes within the
  /// conversion tolerance (a delayed corner often lands on the line), ramps kept ≤ the longest.
  static func straightened(_ points: [AndroidEffect.ControlPoint], start: (intensity: Double, sharpness: Double))
    -> [AndroidEffect.ControlPoint]
  {
    var result: [AndroidEffect.ControlPoint] = []
    for point in points {
      guard let last = result.last, result.count >= 1 else {
        result.append(point)
        continue
      }
      let before = result.count >= 2 ? (result[result.count - 2].intensity, result[result.count - 2].sharpness) : start
      let span = last.duration + point.duration
      let fraction = Double(last.duration) / Double(span)
      let onLine =
        abs(before.0 + (point.intensity - before.0) * fraction - last.intensity) <= HapticClip.conversionTolerance
        && abs(before.1 + (point.sharpness - before.1) * fraction - last.sharpness) <= HapticClip.conversionTolerance
      if onLine && span <= AndroidEffect.longestRampMilliseconds {
        result[result.count - 1] = AndroidEffect.ControlPoint(intensity: point.intensity, sharpness: point.sharpness, duration: span)
      } else {
        result.append(point)
      }
    }
    return result
  }

  /// The control points of a ramp, cut into pieces of at most the longest ramp.
  static func ramp(
    from: (ms: Int, intensity: Double, sharpness: Double), to: (ms: Int, intensity: Double, sharpness: Double)
  ) -> [AndroidEffect.ControlPoint] {
    let span = to.ms - from.ms
    let pieces = max(1, (span + AndroidEffect.longestRampMilliseconds - 1) / AndroidEffect.longestRampMilliseconds)
    return (1...pieces).map { piece in
      let fraction = Double(piece) / Double(pieces)
      return AndroidEffect.ControlPoint(
        intensity: from.intensity + (to.intensity - from.intensity) * fraction,
        sharpness: from.sharpness + (to.sharpness - from.sharpness) * fraction,
        duration: span * piece / pieces - span * (piece - 1) / pieces)
    }
  }
}

/// A piecewise-linear line read at increasing times (steps: the later point's value).
struct LineCursor {
  private let points: [(time: Double, value: Double)]
  private let empty: Double
  /// The first point after the last time read.
  private var next = 0

  init(_ points: [(time: Double, value: Double)], empty: Double) {
    self.points = points
    self.empty = empty
  }

  mutating func value(at t: Double) -> Double {
    guard let first = points.first, let last = points.last else { return empty }
    while next < points.count && points[next].time <= t { next += 1 }
    if next == 0 { return first.value }
    if next == points.count { return last.value }
    let (a, b) = (points[next - 1], points[next])
    return a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time)
  }
}
