import Foundation
import HapticRenderer
import HapticSimulator

extension CharacterizationReport {
  /// Intensity → steady acceleration (log G) per sharpness, one plot per channel, with the
  /// detection threshold.
  func svg() -> String {
    let width = 760.0
    let plotHeight = 360.0
    let left = 70.0
    let right = 150.0
    let top = 40.0
    let channelHeight = plotHeight + 70
    let height = top + Double(maps.count) * channelHeight
    let plotWidth = width - left - right
    let colours = ["#2c3e50", "#1f6fb2", "#27ae60", "#e67e22", "#c0392b"]
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
      viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(f(left))" y="20" font-size="14">\(SVGText.escape(profile.name)): intensity → steady acceleration</text>

      """
    for (index, map) in maps.enumerated() {
      let y0 = top + Double(index) * channelHeight
      let levels = map.sweeps.flatMap { $0.points.map(\.steady) }.filter { $0 > 0 }
      let lowDecade = floor(log10(min(levels.min() ?? 0.01, ChannelResponseMap.detectionThreshold) * 0.8))
      let highDecade = ceil(log10(max(levels.max() ?? 1, 0.1) * 1.2))
      func y(_ g: Double) -> Double {
        let clamped = max(g, pow(10, lowDecade))
        return y0 + plotHeight - (log10(clamped) - lowDecade) / (highDecade - lowDecade) * plotHeight
      }
      func x(_ intensity: Double) -> Double { left + intensity * plotWidth }
      svg += "<text x=\"\(f(left))\" y=\"\(f(y0 - 6))\">channel \(map.channel) (\(map.kind.rawValue))</text>\n"
      svg += "<rect x=\"\(f(left))\" y=\"\(f(y0))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" "
      svg += "fill=\"none\" stroke=\"#999\"/>\n"
      var decade = lowDecade
      while decade <= highDecade {
        for multiple in [1.0, 2, 5] where decade + log10(multiple) <= highDecade {
          let g = multiple * pow(10, decade)
          svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(g)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(g)))\" stroke=\"#eee\"/>\n"
          svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(g) + 4))\" text-anchor=\"end\">\(label(g)) G</text>\n"
        }
        decade += 1
      }
      for tick in stride(from: 0.0, through: 1.0, by: 0.1) {
        svg += "<text x=\"\(f(x(tick)))\" y=\"\(f(y0 + plotHeight + 16))\" text-anchor=\"middle\">\(f(tick, 1))</text>\n"
      }
      svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(y0 + plotHeight + 34))\" text-anchor=\"middle\">intensity</text>\n"
      let threshold = y(ChannelResponseMap.detectionThreshold)
      svg += "<line x1=\"\(f(left))\" y1=\"\(f(threshold))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(threshold))\" "
      svg += "stroke=\"#c0392b\" stroke-dasharray=\"5,4\"/>\n"
      svg += "<text x=\"\(f(left + plotWidth + 8))\" y=\"\(f(threshold + 4))\" fill=\"#c0392b\">threshold 0.026 G</text>\n"
      for (row, sweep) in map.sweeps.enumerated() {
        let colour = colours[row % colours.count]
        let points = sweep.points.map { "\(f(x($0.intensity))),\(f(y($0.steady)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\" points=\"\(points)\"/>\n"
        let legendY = y0 + 14 + Double(row) * 16
        svg += "<text x=\"\(f(left + plotWidth + 8))\" y=\"\(f(legendY))\" fill=\"\(colour)\">"
        svg += "sharpness \(f(sweep.sharpness, 2)) (\(f(sweep.frequency, 0)) Hz)</text>\n"
      }
    }
    return svg + "</svg>\n"
  }

  private func label(_ g: Double) -> String {
    g >= 1 ? f(g, 0) : g >= 0.1 ? f(g, 1) : g >= 0.01 ? f(g, 2) : f(g, 3)
  }

  private func f(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }
}
