import HapticCore

/// Traces a pattern's continuous mix (``PatternSampler``) into breakpoints: at each knot the
/// value from the left and from the right (two breakpoints at one time where it steps), and
/// between knots as many midpoints as keep straight lines within the tolerance.
struct ClipTrace {
  struct Point {
    var time: Double
    var sample: PatternSampler.Sample
  }

  let sampler: PatternSampler
  let tolerance: Double
  /// Intervals are not split below this, seconds (a breakpoint per 25 µs at most: a pattern's
  /// intensity may rise by 0.3 within half a millisecond, a curve in amplitude that needs eight
  /// pieces to stay within ``HapticClip/clipTolerance``; Lofelt's `studio_export`).
  static let shortest = 0.000025
  private(set) var points: [Point] = []
  /// Where the trace ends: when the last sound ends or the last transient starts, seconds.
  private(set) var end = 0.0

  init(sampler: PatternSampler, tolerance: Double) {
    self.sampler = sampler
    self.tolerance = tolerance
  }

  /// The trace of `pattern`'s mix: a point at every knot (and at every transient's onset) and
  /// the midpoints between them.
  init(_ pattern: HapticPattern, sampler: PatternSampler, tolerance: Double) {
    self.init(sampler: sampler, tolerance: tolerance)
    let transients = pattern.events.filter { $0.type == .hapticTransient }.map(\.time)
    end = max(sampler.sounds.map(\.end).max() ?? 0, transients.max() ?? 0)
    // Nothing that lasts (a lone tap at 0, a continuous event of no length, nothing at all):
    // the clip would be one breakpoint, a moment Meta's validator refuses (and hapticctl warns
    // about); it lasts a transient's felt length (found by fuzzing: an event whose misspelt
    // EventDuration left it 0 s long).
    let lone = end <= 0
    if lone { end = Self.transientLength }
    for knot in Set(sampler.knots(in: pattern) + transients + [0] + (lone ? [end] : [])).sorted() { add(knot) }
  }

  /// How long a transient is felt, seconds: it rises in about 7 ms and stops in under 3
  /// (docs/semantics.md §11.5).
  static let transientLength = 0.010

  /// Adds knot `t` (knots come in increasing order) and the midpoints before it.
  mutating func add(_ t: Double) {
    let right = sampler.sample(at: t)
    guard let previous = points.last else {
      points.append(Point(time: t, sample: right))
      return
    }
    let left = t - PatternSampler.before > previous.time ? sampler.sample(at: t - PatternSampler.before) : previous.sample
    refine(previous, Point(time: t, sample: left), depth: 0)
    if differs(left, right) { points.append(Point(time: t, sample: left)) }
    points.append(Point(time: t, sample: right))
  }

  private func differs(_ a: PatternSampler.Sample, _ b: PatternSampler.Sample) -> Bool {
    if abs(a.intensity - b.intensity) > 1e-12 { return true }
    guard a.active > 0, b.active > 0 else { return false }
    return abs(a.sharpness - b.sharpness) > 1e-12
  }

  private mutating func refine(_ a: Point, _ b: Point, depth: Int) {
    guard b.time - a.time > Self.shortest * 2, depth < 20 else { return }
    let mid = (a.time + b.time) / 2
    let m = Point(time: mid, sample: sampler.sample(at: mid))
    // A clip is linear in amplitude (intensity²) and frequency (sharpness²) between breakpoints,
    // as Meta's renderer plays it; Android's timelines are linear in intensity: the line must
    // hold both ways.
    var error = Self.midpointError(m.sample.intensity, a.sample.intensity, b.sample.intensity)
    if a.sample.active > 0, b.sample.active > 0, m.sample.active > 0 {
      error = max(error, Self.midpointError(m.sample.sharpness, a.sample.sharpness, b.sample.sharpness))
    }
    guard error > tolerance else { return }
    refine(a, m, depth: depth + 1)
    points.append(m)
    refine(m, b, depth: depth + 1)
  }

  /// How far `middle` lies from the midpoint of a straight line from `a` to `b`, in the value
  /// itself or in its square (mapped back), whichever is further.
  static func midpointError(_ middle: Double, _ a: Double, _ b: Double) -> Double {
    max(abs(middle - (a + b) / 2), abs(middle - ((a * a + b * b) / 2).squareRoot()))
  }

  /// The mixed intensity up to `end`, as straight lines between points (steps: two points at
  /// one time), without points a straight line through their neighbours already gives.
  func intensityLine(until end: Double) -> [(time: Double, value: Double)] {
    Self.simplify(points.filter { $0.time <= end }.map { ($0.time, $0.sample.intensity) })
  }

  /// The mixed sharpness where events are active, up to `end`.
  func sharpnessLine(until end: Double) -> [(time: Double, value: Double)] {
    Self.simplify(points.filter { $0.time <= end && $0.sample.active > 0 }.map { ($0.time, $0.sample.sharpness) })
  }

  /// The amplitude envelope (intensity²) up to `end`, straight lines in amplitude.
  func amplitude(until end: Double) -> [HapticClip.AmplitudeBreakpoint] {
    Self.simplify(points.filter { $0.time <= end }.map { ($0.time, min($0.sample.intensity * $0.sample.intensity, 1)) })
      .map { HapticClip.AmplitudeBreakpoint(time: $0.time, amplitude: $0.value) }
  }

  /// The frequency envelope (sharpness²) where events are active, up to `end`, straight lines
  /// in frequency.
  func frequency(until end: Double) -> [HapticClip.FrequencyBreakpoint] {
    Self.simplify(
      points.filter { $0.time <= end && $0.sample.active > 0 }.map { ($0.time, min(max($0.sample.sharpness * $0.sample.sharpness, 0), 1)) }
    ).map { HapticClip.FrequencyBreakpoint(time: $0.time, frequency: $0.value) }
  }

  /// Drops the points lying on the straight line between their neighbours (steps, two points
  /// at one time, are kept).
  static func simplify(_ points: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
    guard points.count > 2 else { return points }
    var kept = [points[0]]
    for index in 1..<(points.count - 1) {
      let (a, p, b) = (kept[kept.count - 1], points[index], points[index + 1])
      let span = b.time - a.time
      let onLine = span > 0 && p.time > a.time && p.time < b.time
        && abs(a.value + (b.value - a.value) * (p.time - a.time) / span - p.value) <= 1e-9
      if !onLine { kept.append(p) }
    }
    kept.append(points[points.count - 1])
    return kept
  }
}
