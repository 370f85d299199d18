import HapticCore

/// Evaluates one dynamic parameter at non-decreasing times in amortised O(1).
///
/// Same rule as ``HapticCore/ControlTimeline``: the entry that took effect last wins, the
/// neutral default applies before any entry, values clamp to the control's range.
struct ControlCursor: Sendable {
  private enum Source: Sendable {
    case step(Double)
    case curve(ParameterCurve)
  }

  private let id: DynamicParameterID
  private let starts: [Double]
  private let sources: [Source]
  private var index = -1
  /// Within the current curve: the last control point at or before the last time asked.
  private var point = 0

  init(_ id: DynamicParameterID, pattern: HapticPattern) {
    self.id = id
    var entries: [(start: Double, source: Source)] = []
    for parameter in pattern.parameters where parameter.id == id {
      entries.append((parameter.time, .step(parameter.value)))
    }
    for curve in pattern.curves where curve.id == id {
      entries.append((curve.effectiveStart, .curve(curve)))
    }
    let order = entries.indices.sorted { a, b in
      entries[a].start < entries[b].start || (entries[a].start == entries[b].start && a < b)
    }
    starts = order.map { entries[$0].start }
    sources = order.map { entries[$0].source }
  }

  /// True when the pattern never sets this control (it stays at its default).
  var isConstant: Bool { starts.isEmpty }

  /// The value at `t`; `t` must not decrease between calls.
  mutating func value(at t: Double) -> Double {
    while index + 1 < starts.count && starts[index + 1] <= t {
      index += 1
      point = 0
    }
    guard index >= 0 else { return id.defaultValue }
    switch sources[index] {
    case .step(let value): return id.clamp(value)
    case .curve(let curve): return id.clamp(curveValue(curve, at: t))
    }
  }

  /// ``ParameterCurve/value(at:)`` by walking forward from the last point instead of searching.
  private mutating func curveValue(_ curve: ParameterCurve, at patternTime: Double) -> Double {
    let points = curve.controlPoints
    guard let first = points.first, let last = points.last else { return id.defaultValue }
    let t = patternTime - curve.time
    if t < first.time { return first.value }
    if t >= last.time { return last.value }
    while point + 1 < points.count && points[point + 1].time <= t { point += 1 }
    let a = points[point]
    let b = points[point + 1]
    let span = b.time - a.time
    if span <= 0 { return b.value }
    return a.value + (b.value - a.value) * ((t - a.time) / span)
  }
}
