import Foundation

/// The ticks of one plot axis: values at a "nice" step (1, 2 or 5 × 10ⁿ, or 1-2-5 per decade on
/// a log axis) and their labels, all with the same number of decimals.
struct PlotTicks: Equatable {
  /// Tick values, increasing, in the axis' own units.
  var values: [Double]
  /// One label per value.
  var labels: [String]

  /// The nice steps from `least` up: 1, 2, 5, 10, 20, 50, … × 10ⁿ, over sixteen decades.
  private static func steps(from least: Double) -> [Double] {
    let start = pow(10, floor(log10(max(least, 1e-12))))
    var steps: [Double] = []
    for decade in 0..<16 {
      for multiple in [1.0, 2, 5] {
        let step = multiple * start * pow(10, Double(decade))
        if step >= least * (1 - 1e-9) { steps.append(step) }
      }
    }
    return steps
  }

  /// The ticks of `range` at `step`: every multiple of it inside the range.
  static func linear(_ range: ClosedRange<Double>, step: Double) -> PlotTicks {
    let digits = max(0, Int(-floor(log10(step) + 1e-9)))
    var values: [Double] = []
    var index = (range.lowerBound / step - 1e-9).rounded(.up)
    while index * step <= range.upperBound + step * 1e-9 {
      let value = index * step
      values.append(value == 0 ? 0 : value)
      index += 1
    }
    return PlotTicks(values: values, labels: values.map { SVGText.number($0, digits) })
  }

  /// Linear ticks over `range` at the smallest nice step that gives at most `maxCount` of them.
  static func linear(_ range: ClosedRange<Double>, maxCount: Int) -> PlotTicks {
    let span = max(range.upperBound - range.lowerBound, 1e-9)
    for step in steps(from: span / Double(max(maxCount, 1))) {
      let ticks = linear(range, step: step)
      if ticks.values.count <= max(maxCount, 2) { return ticks }
    }
    return linear(range, step: span)
  }

  /// Linear ticks over `range` on an axis `length` px long whose labels (at `size` px) stand
  /// at least `gap` px apart: the densest nice step whose labels do not touch.
  static func fitting(_ range: ClosedRange<Double>, length: Double, size: Double, gap: Double) -> PlotTicks {
    let span = max(range.upperBound - range.lowerBound, 1e-9)
    for step in steps(from: span / 64) {
      let ticks = linear(range, step: step)
      let widest = ticks.labels.map { SVGText.width($0, size: size) }.max() ?? 0
      let spacing = length * step / span
      if spacing >= widest + gap { return ticks }
    }
    return linear(range, step: span)
  }

  /// Ticks at 1, 2 and 5 × 10ⁿ for every decade from 10^`low` up to 10^`high`.
  static func logarithmic(decades low: Int, _ high: Int) -> PlotTicks {
    var values: [Double] = []
    var labels: [String] = []
    for decade in low...max(low, high) {
      for multiple in [1.0, 2, 5] where Double(decade) + log10(multiple) <= Double(high) + 1e-9 {
        values.append(multiple * pow(10, Double(decade)))
        labels.append(SVGText.number(values[values.count - 1], max(0, -decade)))
      }
    }
    return PlotTicks(values: values, labels: labels)
  }

  /// The least nice number (1, 2, 2.5, 5 × 10ⁿ) at or above `value` (> 0).
  static func niceCeiling(_ value: Double) -> Double {
    let magnitude = pow(10, floor(log10(value)))
    for multiple in [1.0, 2, 2.5, 5, 10] where multiple * magnitude >= value * (1 - 1e-9) {
      return multiple * magnitude
    }
    return 10 * magnitude
  }
}
