extension HapticClip {
  /// A control curve's points with each silent stretch between two sounding spans replaced by
  /// a hold: the value where the span before ends, held to the middle of the gap, a step there
  /// to the value where the next span starts, held to it.
  ///
  /// Nothing sounds in a gap, so its values are not heard — except by the renderer, which
  /// rounds an event's start and end to frames: an event's first or last frame can fall up to
  /// half a frame outside its span, where the curve would otherwise be a step to silence or a
  /// line towards the next burst's values. Holding the span's own values there plays each burst
  /// as the AHAP event it came from plays (`ClipRoundTripTests`).
  static func holdingThroughGaps(
    _ points: [(time: Double, value: Double)], _ spans: [ClosedRange<Double>]
  ) -> [(time: Double, value: Double)] {
    guard spans.count > 1, !points.isEmpty else { return points }
    var result: [(time: Double, value: Double)] = []
    result.reserveCapacity(points.count + 4 * spans.count)
    var index = 0
    for (before, after) in zip(spans, spans.dropFirst()) {
      // The points before the end of the span before; then its value there from the left.
      while index < points.count && points[index].time < before.upperBound {
        result.append(points[index])
        index += 1
      }
      // `index` is now the first point at or after the span's end: its value from the left.
      let end = Self.value(points, from: index, at: before.upperBound)
      // Past the gap's own points to the next span's start; the last point there, if any,
      // gives its value from the right.
      while index < points.count && points[index].time < after.lowerBound { index += 1 }
      var last = index
      while last + 1 < points.count && points[last + 1].time == after.lowerBound { last += 1 }
      let start = Self.value(points, from: last, at: after.lowerBound)
      let middle = (before.upperBound + after.lowerBound) / 2
      result += [(before.upperBound, end), (middle, end), (middle, start), (after.lowerBound, start)]
      while index < points.count && points[index].time <= after.lowerBound { index += 1 }
    }
    result += points[index...]
    return result
  }

  /// The value of a piecewise-linear curve at `time`, given `index`: a point at `time` (its
  /// value is taken), or the first point after it (the value is read on the line from the point
  /// before). Held before the first point and after the last.
  static func value(_ points: [(time: Double, value: Double)], from index: Int, at time: Double) -> Double {
    guard !points.isEmpty else { return 0 }
    guard index < points.count else { return points[points.count - 1].value }
    if points[index].time == time || index == 0 { return points[index].value }
    let (a, b) = (points[index - 1], points[index])
    return a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
  }
}
