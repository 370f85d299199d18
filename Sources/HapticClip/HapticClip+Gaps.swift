extension HapticClip {
  /// A control curve's points with each silent stretch between two sounding spans replaced by
  /// a hold: the value where the span before ends, held to the middle of the gap, a step there
  /// to the value where the next span starts, held to it.
  ///
  /// Nothing sounds in a gap, so its values are not heard — except by the renderer, which
  /// rounds an event's start and end to frames: an event's first or last frame can fall up to
  /// half a frame outside its span, where the curve would otherwise be a step to silence or a
  /// line towards the next burst's values. Holding the span's own values there plays each burst
  /// as the AHAP event it came from plays (`ClipConversionTests`).
  static func holdingThroughGaps(
    _ points: [(time: Double, value: Double)], _ spans: [ClosedRange<Double>]
  ) -> [(time: Double, value: Double)] {
    guard spans.count > 1, !points.isEmpty else { return points }
    var result: [(time: Double, value: Double)] = []
    var index = 0
    for (before, after) in zip(spans, spans.dropFirst()) {
      // The points up to the end of the span before, including every point at its end.
      while index < points.count && points[index].time < before.upperBound { result.append(points[index]); index += 1 }
      let end = Self.value(points, at: before.upperBound, fromLeft: true)
      let start = Self.value(points, at: after.lowerBound, fromLeft: false)
      let middle = (before.upperBound + after.lowerBound) / 2
      result.append((before.upperBound, end))
      result.append((middle, end))
      result.append((middle, start))
      result.append((after.lowerBound, start))
      // Skip the gap's own points, and those at the next span's start (its value is in).
      while index < points.count && points[index].time <= after.lowerBound { index += 1 }
    }
    result += points[index...]
    return result
  }

  /// The value of a piecewise-linear curve at `time`: of the last point there when coming from
  /// the right, of the first when coming from the left; held before the first and after the last.
  static func value(_ points: [(time: Double, value: Double)], at time: Double, fromLeft: Bool) -> Double {
    guard let first = points.first, let last = points.last else { return 0 }
    if time < first.time { return first.value }
    if time > last.time { return last.value }
    if fromLeft, let exact = points.firstIndex(where: { $0.time == time }) { return points[exact].value }
    if !fromLeft, let exact = points.lastIndex(where: { $0.time == time }) { return points[exact].value }
    guard let next = points.firstIndex(where: { $0.time > time }), next > 0 else { return last.value }
    let (a, b) = (points[next - 1], points[next])
    return a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
  }
}
