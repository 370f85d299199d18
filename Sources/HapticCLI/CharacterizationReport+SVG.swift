import Foundation
import HapticRenderer
import HapticSimulator

extension CharacterizationReport {
  /// The plot's right margin: room for the legend beside each panel.
  private static let legendMargin = 250.0

  /// Intensity → steady acceleration (log G) per sharpness, one panel per channel with the
  /// detection threshold, in the plot style of `render` and `simulate`.
  func svg() -> String {
    var plot = SVGPlot(rightMargin: Self.legendMargin)
    plot.title(
      name: profile.name, rest: ": intensity → steady acceleration",
      note: "\(profile.id), simulated at 16000 Hz")
    var top = PlotStyle.firstTop - 20
    for (index, map) in maps.enumerated() {
      let levels = map.sweeps.flatMap { $0.points.map(\.steady) }.filter { $0 > 0 }
      let lowDecade = Int(floor(log10(min(levels.min() ?? 0.01, ChannelResponseMap.detectionThreshold) * 0.8)))
      let highDecade = Int(ceil(log10(max(levels.max() ?? 1, 0.1) * 1.2)))
      let band = map.sharpnessBand.map { ", sharpness band \($0.lowerBound)–\($0.upperBound) Hz" } ?? ", amplitude only"
      plot.heading("channel \(map.channel): \(map.kind.rawValue), \(f(map.resonantFrequency, 0)) Hz\(band)", y: top + 14)
      top += PlotStyle.headingHeight
      let (panel, next) = plot.panel(
        top: top, height: 320, xDomain: 0...1, yDomain: pow(10, Double(lowDecade))...pow(10, Double(highDecade)),
        logarithmic: true, xTicks: PlotTicks.linear(0...1, step: 0.1),
        yTicks: PlotTicks.logarithmic(decades: lowDecade, highDecade),
        titles: PlotAxisTitles(x: "intensity", y: "steady acceleration (G, log scale)"))
      let threshold = panel.y(ChannelResponseMap.detectionThreshold)
      plot.add(
        "<line class=\"threshold\" x1=\"\(f(panel.frame.x))\" y1=\"\(f(threshold))\" x2=\"\(f(panel.frame.maxX))\" "
          + "y2=\"\(f(threshold))\" stroke=\"\(PlotStyle.acceleration)\" stroke-width=\"1.6\" stroke-dasharray=\"6,4\"/>\n")
      var entries: [PlotLegendEntry] = []
      for (row, sweep) in map.sweeps.enumerated() {
        let colour = PlotStyle.series[row % PlotStyle.series.count]
        plot.line(in: panel, points: sweep.points.map { ($0.intensity, $0.steady) }, colour: colour)
        entries.append(
          PlotLegendEntry(
            mark: .line(dashed: false), colour: colour,
            label: "sharpness \(f(sweep.sharpness, 2)) (\(f(sweep.frequency, 0)) Hz)"))
      }
      entries.append(PlotLegendEntry(mark: .line(dashed: true), colour: PlotStyle.acceleration, label: "threshold 0.026 G"))
      plot.legend(entries, x: panel.frame.maxX + 20, y: panel.frame.y + 10, vertical: true)
      top = next + (index + 1 < maps.count ? PlotStyle.channelGap : 0)
    }
    return plot.rendered(height: top + PlotStyle.channelGap)
  }

  private func f(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }
}
