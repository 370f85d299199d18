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
    while index + 1 < starts.count && starts[index + 1] <= t { index += 1 }
    guard index >= 0 else { return id.defaultValue }
    switch sources[index] {
    case .step(let value): return id.clamp(value)
    case .curve(let curve): return id.clamp(curve.value(at: t))
    }
  }
}
