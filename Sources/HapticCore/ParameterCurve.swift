/// A piecewise-linear curve driving a dynamic parameter (AHAP `ParameterCurve`,
/// Core Haptics' `CHHapticParameterCurve`).
///
/// Control-point times are relative to the curve's ``time`` (Apple's convention). The curve takes
/// effect at its first control point, interpolates linearly between points, and holds its last
/// value afterwards until a later-starting entry on the same ID takes over (docs/semantics.md).
public struct ParameterCurve: Sendable, Hashable {
  /// One control point: a time relative to the curve start and a value.
  public struct ControlPoint: Sendable, Hashable {
    /// Seconds after the curve's start time.
    public var time: Double
    /// The control value at that time.
    public var value: Double

    /// Creates a control point.
    public init(time: Double, value: Double) {
      self.time = time
      self.value = value
    }
  }

  /// The control this curve drives.
  public var id: DynamicParameterID
  /// When the curve starts, in seconds from the pattern start.
  public var time: Double
  /// The control points in time order (equal times make a step).
  public var controlPoints: [ControlPoint]

  /// Creates a curve.
  public init(_ id: DynamicParameterID, time: Double, controlPoints: [ControlPoint]) {
    self.id = id
    self.time = time
    self.controlPoints = controlPoints
  }

  /// Pattern time at which the curve takes effect (its first control point), or ``time`` if the
  /// curve has no points.
  public var effectiveStart: Double { time + (controlPoints.first?.time ?? 0) }

  /// Pattern time of the last control point, or ``time`` if the curve has no points.
  public var end: Double { time + (controlPoints.last?.time ?? 0) }

  /// The curve's value at `patternTime` (seconds from the pattern start).
  ///
  /// Before the first point the first value holds, after the last point the last value holds;
  /// at a time shared by several points (a step) the last of them wins. A curve without points
  /// yields the control's neutral default.
  public func value(at patternTime: Double) -> Double {
    guard let first = controlPoints.first, let last = controlPoints.last else {
      return id.defaultValue
    }
    let t = patternTime - time
    if t < first.time { return first.value }
    if t >= last.time { return last.value }
    // Binary search for the last point with time <= t.
    var low = 0
    var high = controlPoints.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if controlPoints[mid].time <= t { low = mid } else { high = mid - 1 }
    }
    let a = controlPoints[low]
    let b = controlPoints[low + 1]
    let span = b.time - a.time
    if span <= 0 { return b.value }
    // At the point itself its value (b − a can overflow to ±∞ for finite points far outside
    // any control's range, and ∞ × 0 is NaN).
    if t == a.time { return a.value }
    return a.value + (b.value - a.value) * ((t - a.time) / span)
  }
}
