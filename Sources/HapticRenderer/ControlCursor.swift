import HapticCore

/// Evaluates one dynamic parameter at non-decreasing times in amortised O(1).
///
/// Same rule as ``HapticCore/ControlTimeline``: the entry that took effect last wins, the
/// neutral default applies before any entry, values clamp to the control's range. Entries and
/// curve points live in flat arrays (no per-frame copies of curves), and a point cursor walks
/// forward through the current curve.
struct ControlCursor: Sendable {
  private struct Entry: Sendable {
    /// Pattern time at which the entry takes effect.
    let start: Double
    /// A step's value (unused for curves).
    let value: Double
    /// For curves: the curve's time and its points' range in `pointTimes`/`pointValues`.
    let curveTime: Double
    let firstPoint: Int
    let pointCount: Int
  }

  private let id: DynamicParameterID
  private let low: Double
  private let high: Double
  private let entries: [Entry]
  private let pointTimes: [Double]
  private let pointValues: [Double]
  /// Per point: the slope to the next point (value per second; unused for the last point of a
  /// curve and for steps, where the next point's value applies at once).
  private let pointSlopes: [Double]
  private var index = -1
  /// Within the current curve: the last control point at or before the last time asked.
  private var point = 0
  /// The linear piece found by the last lookup: until pattern time `pieceEnd` the raw value is
  /// `pieceValue + pieceSlope × ((t − pieceCurveTime) − pieceTime)` (the same arithmetic as a
  /// full lookup, so the fast path gives identical values).
  private var pieceEnd = -Double.infinity
  private var pieceValue = 0.0
  private var pieceSlope = 0.0
  private var pieceCurveTime = 0.0
  private var pieceTime = 0.0

  init(_ id: DynamicParameterID, pattern: HapticPattern) {
    self.id = id
    low = id.range.lowerBound
    high = id.range.upperBound
    var collected: [Entry] = []
    var times: [Double] = []
    var values: [Double] = []
    for parameter in pattern.parameters where parameter.id == id {
      collected.append(Entry(start: parameter.time, value: parameter.value, curveTime: 0, firstPoint: 0, pointCount: 0))
    }
    for curve in pattern.curves where curve.id == id {
      guard !curve.controlPoints.isEmpty else {
        // A curve without points holds the neutral default (as ControlTimeline does).
        collected.append(Entry(start: curve.time, value: id.defaultValue, curveTime: 0, firstPoint: 0, pointCount: 0))
        continue
      }
      collected.append(Entry(
        start: curve.effectiveStart, value: 0, curveTime: curve.time, firstPoint: times.count,
        pointCount: curve.controlPoints.count))
      times += curve.controlPoints.map(\.time)
      values += curve.controlPoints.map(\.value)
    }
    entries = collected.stableSorted(by: \.start)
    pointTimes = times
    pointValues = values
    pointSlopes = times.indices.map { i in
      guard i + 1 < times.count, times[i + 1] > times[i] else { return 0 }
      return (values[i + 1] - values[i]) / (times[i + 1] - times[i])
    }
  }

  /// True when the pattern never sets this control (it stays at its default).
  var isConstant: Bool { entries.isEmpty }

  /// The value at `t`; `t` must not decrease between calls.
  @inline(__always)
  mutating func value(at t: Double) -> Double {
    if t >= pieceEnd { findPiece(at: t) }
    let offset = (t - pieceCurveTime) - pieceTime
    // At a piece's start the value is its point's: an infinite slope (two finite points more
    // than the largest Double apart, ±1.8e308) times 0 would be NaN, and a NaN control trapped
    // the renderer's frequency tables (found by NeverTrapTests' random seeds).
    let raw = pieceSlope == 0 || offset == 0 ? pieceValue : pieceValue + pieceSlope * offset
    return Swift.min(Swift.max(raw, low), high)
  }

  /// The pattern time until which the value stays what it is at `t` (the last lookup's time):
  /// the end of a flat piece, or `t` itself while a curve is moving.
  func constant(from t: Double) -> Double {
    pieceSlope == 0 ? pieceEnd : t
  }

  /// The pattern time at which the piece found by the last lookup ends (the value may bend or
  /// jump there).
  var pieceEndTime: Double { pieceEnd }

  /// Looks up the entry and linear piece in effect at `t`.
  private mutating func findPiece(at t: Double) {
    while index + 1 < entries.count && entries[index + 1].start <= t {
      index += 1
      point = 0
    }
    let nextStart = index + 1 < entries.count ? entries[index + 1].start : Double.infinity
    pieceSlope = 0
    pieceCurveTime = 0
    pieceTime = 0
    guard index >= 0 else {
      pieceValue = id.defaultValue
      pieceEnd = nextStart
      return
    }
    let entry = entries[index]
    guard entry.pointCount > 0 else {
      pieceValue = entry.value
      pieceEnd = nextStart
      return
    }
    // Walk forward to the last point at or before t (a step at shared times: the last wins).
    let first = entry.firstPoint
    let last = first + entry.pointCount - 1
    let local = t - entry.curveTime
    if point < first { point = first }
    while point + 1 <= last && pointTimes[point + 1] <= local { point += 1 }
    if local < pointTimes[first] {
      pieceValue = pointValues[first]
      pieceEnd = Swift.min(nextStart, entry.curveTime + pointTimes[first])
    } else if point == last {
      pieceValue = pointValues[last]
      pieceEnd = nextStart
    } else {
      pieceValue = pointValues[point]
      pieceSlope = pointSlopes[point]
      pieceCurveTime = entry.curveTime
      pieceTime = pointTimes[point]
      pieceEnd = Swift.min(nextStart, entry.curveTime + pointTimes[point + 1])
    }
  }
}
