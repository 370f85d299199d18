import HapticCore

/// A pattern's dynamic parameters seen from a pattern time: what a player renders after a seek,
/// a loop wrap or a rate change (docs/semantics.md §13.4).
enum PatternControls {
  /// The steps and curves of `pattern` from `offset` (pattern seconds) on, shifted to start at 0
  /// and time-scaled by `scale`. Per control, the entry in force at the offset
  /// (`HapticCore.ControlTimeline.inForce(_:at:)`) carries over: a step, or a curve
  /// that has ended, as a step at 0 with its value there; a curve still moving as a curve from
  /// 0 that continues from its value there. Entries taking effect later keep their times. Every
  /// time stays ≥ 0, so the excerpt is a valid pattern (a curve shifted to a negative time made
  /// a seek into the 15 s corpus pattern play nothing, and its player never finish).
  static func excerpt(
    _ pattern: HapticPattern, from offset: Double, scale: Double
  ) -> (parameters: [DynamicParameter], curves: [ParameterCurve]) {
    guard offset > 0 else {
      let parameters = pattern.parameters.map { DynamicParameter($0.id, value: $0.value, time: $0.time * scale) }
      let curves = pattern.curves.map { scaled($0, shift: 0, scale: scale) }
      return (parameters, curves)
    }
    let timeline = ControlTimeline(pattern)
    var parameters: [DynamicParameter] = []
    var curves: [ParameterCurve] = []
    for id in DynamicParameterID.allCases {
      let steps = pattern.parameters.filter { $0.id == id }
      let idCurves = pattern.curves.filter { $0.id == id }
      switch timeline.inForce(id, at: offset) {
      case .curve(let curve) where curve.end > offset:
        let rest = curve.controlPoints.filter { curve.time + $0.time > offset }.map {
          ParameterCurve.ControlPoint(time: (curve.time + $0.time - offset) * scale, value: $0.value)
        }
        curves.append(
          ParameterCurve(id, time: 0, controlPoints: [.init(time: 0, value: curve.value(at: offset))] + rest))
      case .some:
        parameters.append(DynamicParameter(id, value: timeline.value(id, at: offset), time: 0))
      case nil:
        break
      }
      parameters += steps.filter { $0.time > offset }.map {
        DynamicParameter(id, value: $0.value, time: ($0.time - offset) * scale)
      }
      curves += idCurves.filter { $0.effectiveStart > offset }.map { scaled($0, shift: offset, scale: scale) }
    }
    return (parameters, curves)
  }

  /// `curve` moved `shift` seconds earlier and time-scaled; a curve whose time falls before the
  /// new origin (its first point after it) starts at 0 with its points moved to keep their times.
  private static func scaled(_ curve: ParameterCurve, shift: Double, scale: Double) -> ParameterCurve {
    let start = curve.time - shift
    let base = max(start, 0)
    return ParameterCurve(
      curve.id, time: base * scale,
      controlPoints: curve.controlPoints.map { .init(time: (start - base + $0.time) * scale, value: $0.value) })
  }
}
