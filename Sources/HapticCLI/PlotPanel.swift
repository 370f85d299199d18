import Foundation

/// One plot area of an ``SVGPlot`` and the mapping from data to its pixels: x over `xDomain`
/// (time in seconds, or intensity), y over `yDomain`, linear or logarithmic.
struct PlotPanel {
  var frame: PlotRect
  var xDomain: ClosedRange<Double>
  var yDomain: ClosedRange<Double>
  var logarithmic = false

  /// The page x of `value` (clamped to the panel).
  func x(_ value: Double) -> Double {
    let span = max(xDomain.upperBound - xDomain.lowerBound, 1e-12)
    let fraction = min(max((value - xDomain.lowerBound) / span, 0), 1)
    return frame.x + fraction * frame.width
  }

  /// The page y of `value` (clamped to the panel).
  func y(_ value: Double) -> Double {
    let (low, high, v) =
      logarithmic
      ? (log10(yDomain.lowerBound), log10(yDomain.upperBound), log10(max(value, yDomain.lowerBound)))
      : (yDomain.lowerBound, yDomain.upperBound, value)
    let fraction = min(max((v - low) / max(high - low, 1e-12), 0), 1)
    return frame.maxY - fraction * frame.height
  }
}

/// The labels of a panel's axes.
struct PlotAxisTitles {
  /// Under the x tick labels, centred (e.g. `time (s)`).
  var x: String
  /// Above the panel at its left (e.g. `amplitude (full scale)`).
  var y: String
}

extension SVGPlot {
  /// Lays out a panel whose y-axis title row starts at `top` and draws its grid, axes, ticks,
  /// tick labels and axis titles; returns the panel and the y where the next row may start.
  mutating func panel(
    top: Double, height: Double, xDomain: ClosedRange<Double>, yDomain: ClosedRange<Double>,
    logarithmic: Bool = false, xTicks: PlotTicks? = nil, yTicks: PlotTicks, titles: PlotAxisTitles
  ) -> (panel: PlotPanel, next: Double) {
    let frame = PlotRect(x: plotLeft, y: top + PlotStyle.axisTitleHeight, width: plotWidth, height: height)
    let panel = PlotPanel(frame: frame, xDomain: xDomain, yDomain: yDomain, logarithmic: logarithmic)
    addTraceArea(frame)
    let xTicks =
      xTicks ?? PlotTicks.fitting(xDomain, length: frame.width, size: PlotStyle.fontSize, gap: 28)
    let size = PlotStyle.fontSize
    var grid = ""
    var marks = ""
    for value in yTicks.values where yDomain.contains(value) {
      let y = crisp(panel.y(value))
      grid += "M\(f(frame.x)) \(f(y))H\(f(frame.maxX))"
      marks += "M\(f(frame.x - PlotStyle.tickLength)) \(f(y))H\(f(frame.x))"
    }
    for value in xTicks.values where xDomain.contains(value) {
      let x = crisp(panel.x(value))
      grid += "M\(f(x)) \(f(frame.y))V\(f(frame.maxY))"
      marks += "M\(f(x)) \(f(frame.maxY))V\(f(frame.maxY + PlotStyle.tickLength))"
    }
    add("<path class=\"grid\" d=\"\(grid)\" fill=\"none\" stroke=\"\(PlotStyle.grid)\"/>\n")
    let left = crisp(frame.x)
    let bottom = crisp(frame.maxY)
    addOverlay(
      "<path class=\"axis\" d=\"M\(f(left)) \(f(frame.y))V\(f(bottom))H\(f(frame.maxX))\(marks)\" "
        + "fill=\"none\" stroke=\"\(PlotStyle.axis)\"/>\n")
    for (value, label) in zip(yTicks.values, yTicks.labels) where yDomain.contains(value) {
      text(label, x: frame.x - PlotStyle.tickLength - 3, y: panel.y(value) + 0.35 * size, anchor: .end, role: "tick y")
    }
    let labelBaseline = frame.maxY + PlotStyle.tickLength + 3 + 0.8 * size
    for (value, label) in zip(xTicks.values, xTicks.labels) where xDomain.contains(value) {
      text(label, x: panel.x(value), y: labelBaseline, anchor: .middle, role: "tick x")
    }
    text(titles.x, x: frame.x + frame.width / 2, y: labelBaseline + 16, anchor: .middle, role: "axis-title x")
    text(titles.y, x: frame.x, y: frame.y - 5, role: "axis-title y")
    return (panel, frame.maxY + PlotStyle.belowPanel)
  }

  /// A min/max band: one column per entry of `columns` spread over the panel width, from its
  /// low to its high value; empty columns are skipped.
  mutating func band(in panel: PlotPanel, columns: PlotColumns, colour: String) {
    var upper: [String] = []
    var lower: [String] = []
    for index in 0..<columns.count where columns.samples[index] > 0 {
      let x = f(columns.centre(of: index, in: panel))
      upper.append("\(x),\(f(panel.y(columns.high[index])))")
      lower.append("\(x),\(f(panel.y(columns.low[index])))")
    }
    guard !upper.isEmpty else { return }
    add(
      "<polygon class=\"trace\" points=\"\((upper + lower.reversed()).joined(separator: " "))\" fill=\"\(colour)\" "
        + "fill-opacity=\"0.55\" stroke=\"\(colour)\" stroke-width=\"0.8\" stroke-linejoin=\"round\"/>\n")
  }

  /// The mean of each non-empty column as a line, broken where columns are empty.
  mutating func meanLine(in panel: PlotPanel, columns: PlotColumns, colour: String) {
    var path = ""
    var drawing = false
    for index in 0..<columns.count {
      guard columns.samples[index] > 0 else {
        drawing = false
        continue
      }
      let point = "\(f(columns.centre(of: index, in: panel))) \(f(panel.y(columns.mean(of: index))))"
      path += (drawing ? "L" : "M") + point
      drawing = true
    }
    guard !path.isEmpty else { return }
    add("<path class=\"trace\" d=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>\n")
  }

  /// A line through `points` (data coordinates).
  mutating func line(in panel: PlotPanel, points: [(Double, Double)], colour: String, dashed: Bool = false) {
    let coordinates = points.map { "\(f(panel.x($0.0))),\(f(panel.y($0.1)))" }.joined(separator: " ")
    let dash = dashed ? " stroke-dasharray=\"6,4\"" : ""
    add("<polyline class=\"trace\" points=\"\(coordinates)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\"\(dash)/>\n")
  }

  /// `value` on the pixel grid's centre line, so one-pixel lines render sharp.
  private func crisp(_ value: Double) -> Double { value.rounded(.down) + 0.5 }

  private func f(_ value: Double) -> String { SVGText.number(value, 1) }
}
