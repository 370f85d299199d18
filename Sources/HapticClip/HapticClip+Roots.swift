extension HapticClip {
  /// How far (in intensity or sharpness) a clip's pattern may stray from √ of its envelope
  /// between two breakpoints: 0.0002 (0.01 dB at intensity 0.5 on the perceptual law, far
  /// below a felt step), so a clip converted from AHAP plays back within the trace's
  /// ``clipTolerance``.
  static let rootTolerance = 0.0002

  /// The control points that play an envelope (amplitude or frequency, linear between its
  /// breakpoints, as Meta's renderer plays it) as the intensity or sharpness control (√ of it):
  /// √ of each breakpoint, and between two that differ as many more as keep the control's
  /// straight lines within ``rootTolerance`` of √ of the envelope's line.
  ///
  /// Lofelt's converter put points at the breakpoints only, so a control went straight from √a₀
  /// to √a₁ and the amplitude between was the square of that line: on a 10 s ramp from 1 to 0
  /// (Meta's `long_clip`) 0.026 instead of 0.16 at 8.4 s, 16 dB under what Meta's renderer plays.
  static func rootLine(_ points: [(time: Double, value: Double)]) -> [(time: Double, value: Double)] {
    guard var previous = points.first else { return [] }
    var result = [(time: previous.time, value: previous.value.squareRoot())]
    result.reserveCapacity(points.count * 2)
    for point in points.dropFirst() {
      if point.time > previous.time && point.value != previous.value {
        refine(previous, point, into: &result, depth: 0)
      }
      result.append((point.time, point.value.squareRoot()))
      previous = point
    }
    return result
  }

  /// Appends the points strictly between `a` and `b` (envelope values) that keep √ within
  /// ``rootTolerance``, in time order.
  private static func refine(
    _ a: (time: Double, value: Double), _ b: (time: Double, value: Double),
    into result: inout [(time: Double, value: Double)], depth: Int
  ) {
    let middle = (time: (a.time + b.time) / 2, value: (a.value + b.value) / 2)
    let straight = (a.value.squareRoot() + b.value.squareRoot()) / 2
    guard abs(middle.value.squareRoot() - straight) > rootTolerance, depth < 24, b.time - a.time > 2e-6 else { return }
    refine(a, middle, into: &result, depth: depth + 1)
    result.append((middle.time, middle.value.squareRoot()))
    refine(middle, b, into: &result, depth: depth + 1)
  }
}
