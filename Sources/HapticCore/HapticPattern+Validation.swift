/// What makes a pattern unplayable: a time, duration or value no player can honour. Core
/// Haptics refuses such patterns with an error rather than playing nothing (or trapping); so do
/// hapticctl's engine and renderer.
public struct PatternProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// Apple's code for it (`invalidEventTime`, `invalidEventDuration`, `badParameterEntry`, …).
  public var code: HapticErrorCode
  /// Which entry (`event 3`, `parameter 0`, `curve 1 point 2`) and what is wrong.
  public var message: String

  /// Creates a problem.
  public init(_ code: HapticErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) [\(code)]" }
}

extension HapticPattern {
  /// The first entry no player can honour, or `nil` when the pattern is playable: event times
  /// must be finite and ≥ 0 (`invalidEventTime`), durations finite and ≥ 0
  /// (`invalidEventDuration`), event parameter values finite (`badEventEntry`), dynamic
  /// parameters' and curves' times finite and ≥ 0 and their values finite
  /// (`badParameterEntry`). Values out of a parameter's range are clamped, not refused
  /// (docs/semantics.md §2). Indices count from 0 in the pattern's (time-sorted) order.
  public var problem: PatternProblem? {
    func bad(_ value: Double) -> Bool { !value.isFinite }
    for (index, event) in events.enumerated() {
      if bad(event.time) || event.time < 0 {
        return PatternProblem(.invalidEventTime, "event \(index): time \(event.time) is not a finite time ≥ 0")
      }
      if let duration = event.duration, bad(duration) || duration < 0 {
        return PatternProblem(.invalidEventDuration, "event \(index): duration \(duration) is not a finite duration ≥ 0")
      }
      if let parameter = event.parameters.first(where: { bad($0.value) }) {
        return PatternProblem(.badEventEntry, "event \(index): \(parameter.id.rawValue) is \(parameter.value)")
      }
    }
    for (index, parameter) in parameters.enumerated() {
      if bad(parameter.time) || parameter.time < 0 {
        return PatternProblem(.badParameterEntry, "parameter \(index): time \(parameter.time) is not a finite time ≥ 0")
      }
      if bad(parameter.value) {
        return PatternProblem(.badParameterEntry, "parameter \(index): \(parameter.id.rawValue) value is \(parameter.value)")
      }
    }
    for (index, curve) in curves.enumerated() {
      if bad(curve.time) || curve.time < 0 {
        return PatternProblem(.badParameterEntry, "curve \(index): time \(curve.time) is not a finite time ≥ 0")
      }
      for (pointIndex, point) in curve.controlPoints.enumerated()
      where bad(point.time) || point.time < 0 || bad(point.value) {
        return PatternProblem(
          .badParameterEntry, "curve \(index) point \(pointIndex): time \(point.time), value \(point.value)")
      }
    }
    return nil
  }
}
