import Foundation
import HapticCore
import HapticRenderer

extension RenderJob {
  /// Plot geometry.
  private enum Plot {
    static let width = 1200.0
    static let left = 60.0
    static let right = 20.0
    static let amplitudeHeight = 160.0
    static let frequencyHeight = 90.0
    static let eventsHeight = 26.0
    static let gap = 34.0
    static var plotWidth: Double { width - left - right }
  }

  /// Amplitude (and frequency, when the board has frequency control) over time per channel,
  /// with the pattern's events marked above. Long renders are drawn as per-column min/max.
  func writeSVG(to sink: OutputSink) throws {
    // Pass 1: length.
    var frameCount = 1
    for var render in try channels() {
      var count = 0
      while render.next() != nil { count += 1 }
      frameCount = max(frameCount, count)
    }
    let columns = Int(Plot.plotWidth)
    let perColumn = max(1, Int((Double(frameCount) / Double(columns)).rounded(.up)))
    let duration = Double(frameCount) * profile.framePeriod
    let hasFrequency = profile.frequencyControl != nil
    let channelHeight =
      Plot.eventsHeight + Plot.amplitudeHeight + (hasFrequency ? Plot.frequencyHeight + 10 : 0) + Plot.gap
    let height = 40 + Double(profile.channels.count) * channelHeight
    func x(_ seconds: Double) -> Double { Plot.left + seconds / max(duration, 1e-9) * Plot.plotWidth }

    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(Plot.width))" height="\(fmt(height))" \
      viewBox="0 0 \(fmt(Plot.width)) \(fmt(height))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(fmt(Plot.left))" y="18" font-size="14">\(escape(source)) on \(escape(profile.name))</text>
      <text x="\(fmt(Plot.width - Plot.right))" y="18" text-anchor="end" fill="#555">\(fmt(duration, 3)) s, \(frameCount) frames</text>

      """
    for (channel, var render) in try channels().enumerated() {
      let top = 30 + Double(channel) * channelHeight
      svg += eventMarks(top: top, x: x)
      let ampTop = top + Plot.eventsHeight
      let mid = ampTop + Plot.amplitudeHeight / 2
      let scale = Plot.amplitudeHeight / 2
      // Bucket the frames: min/max amplitude and mean frequency per column.
      var lows: [Double] = []
      var highs: [Double] = []
      var hertz: [Double] = []
      var low = Double.infinity, high = -Double.infinity, hzSum = 0.0, inBucket = 0
      while let (frame, _) = render.next() {
        let a = amplitude(frame.level)
        low = min(low, a)
        high = max(high, a)
        hzSum += Double(frame.frequency)
        inBucket += 1
        if inBucket == perColumn {
          lows.append(low); highs.append(high); hertz.append(hzSum / Double(inBucket))
          low = .infinity; high = -.infinity; hzSum = 0; inBucket = 0
        }
      }
      if inBucket > 0 { lows.append(low); highs.append(high); hertz.append(hzSum / Double(inBucket)) }
      let columnWidth = Plot.plotWidth * Double(perColumn) / Double(max(frameCount, 1))
      svg += axes(top: ampTop, height: Plot.amplitudeHeight, label: "ch \(channel) amplitude", ticks: [(1, "+1"), (0, "0"), (-1, "−1")], mid: mid, scale: scale)
      var upper = ""
      var lower = ""
      for i in lows.indices {
        let px = Plot.left + (Double(i) + 0.5) * columnWidth
        upper += "\(fmt(px)),\(fmt(mid - highs[i] * scale)) "
        lower = "\(fmt(px)),\(fmt(mid - lows[i] * scale)) " + lower
      }
      svg += "<polygon points=\"\(upper)\(lower)\" fill=\"#3366cc\" fill-opacity=\"0.55\" stroke=\"#3366cc\" stroke-width=\"0.6\"/>\n"
      if let band = profile.channels[channel].frequencyControl {
        let fTop = ampTop + Plot.amplitudeHeight + 10
        let fScale = Plot.frequencyHeight / (band.upperBound - band.lowerBound)
        svg += "<rect x=\"\(fmt(Plot.left))\" y=\"\(fmt(fTop))\" width=\"\(fmt(Plot.plotWidth))\" height=\"\(fmt(Plot.frequencyHeight))\" fill=\"none\" stroke=\"#ccc\"/>\n"
        svg += "<text x=\"\(fmt(Plot.left - 6))\" y=\"\(fmt(fTop + 10))\" text-anchor=\"end\">\(fmt(band.upperBound)) Hz</text>\n"
        svg += "<text x=\"\(fmt(Plot.left - 6))\" y=\"\(fmt(fTop + Plot.frequencyHeight))\" text-anchor=\"end\">\(fmt(band.lowerBound)) Hz</text>\n"
        var line = ""
        for i in hertz.indices where highs[i] != 0 || lows[i] != 0 {
          let px = Plot.left + (Double(i) + 0.5) * columnWidth
          let clamped = min(max(hertz[i], band.lowerBound), band.upperBound)
          line += "\(fmt(px)),\(fmt(fTop + Plot.frequencyHeight - (clamped - band.lowerBound) * fScale)) "
        }
        svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#cc6633\" stroke-width=\"1.2\"/>\n"
      }
      svg += timeAxis(y: ampTop + Plot.amplitudeHeight + (hasFrequency ? Plot.frequencyHeight + 10 : 0), duration: duration, x: x)
    }
    svg += "</svg>\n"
    try sink.write(svg)
  }

  private func eventMarks(top: Double, x: (Double) -> Double) -> String {
    var marks = "<text x=\"\(fmt(Plot.left - 6))\" y=\"\(fmt(top + 16))\" text-anchor=\"end\" fill=\"#555\">events</text>\n"
    for event in pattern.events where event.type.isHaptic {
      let intensity = event.value(of: .hapticIntensity)
      if event.type == .hapticTransient {
        marks += "<line x1=\"\(fmt(x(event.time)))\" y1=\"\(fmt(top + 4))\" x2=\"\(fmt(x(event.time)))\" y2=\"\(fmt(top + Plot.eventsHeight - 2))\" stroke=\"#d62728\" stroke-opacity=\"\(fmt(0.3 + 0.7 * intensity, 2))\"/>\n"
      } else {
        let end = event.time + (event.duration ?? 0)
        marks += "<rect x=\"\(fmt(x(event.time)))\" y=\"\(fmt(top + 8))\" width=\"\(fmt(max(1, x(end) - x(event.time))))\" height=\"10\" fill=\"#2ca02c\" fill-opacity=\"\(fmt(0.15 + 0.5 * intensity, 2))\"/>\n"
      }
    }
    return marks
  }

  private func axes(
    top: Double, height: Double, label: String, ticks: [(Double, String)], mid: Double, scale: Double
  ) -> String {
    var text = "<rect x=\"\(fmt(Plot.left))\" y=\"\(fmt(top))\" width=\"\(fmt(Plot.plotWidth))\" height=\"\(fmt(height))\" fill=\"none\" stroke=\"#ccc\"/>\n"
    for (value, name) in ticks {
      let y = mid - value * scale
      text += "<line x1=\"\(fmt(Plot.left))\" y1=\"\(fmt(y))\" x2=\"\(fmt(Plot.left + Plot.plotWidth))\" y2=\"\(fmt(y))\" stroke=\"#eee\"/>\n"
      text += "<text x=\"\(fmt(Plot.left - 6))\" y=\"\(fmt(y + 4))\" text-anchor=\"end\">\(name)</text>\n"
    }
    text += "<text x=\"\(fmt(Plot.left + 4))\" y=\"\(fmt(top + 12))\" fill=\"#555\">\(escape(label))</text>\n"
    return text
  }

  private func timeAxis(y: Double, duration: Double, x: (Double) -> Double) -> String {
    let steps: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600]
    let step = steps.first { duration / $0 <= 12 } ?? 3600
    var text = ""
    var t = 0.0
    while t <= duration + 1e-9 {
      text += "<line x1=\"\(fmt(x(t)))\" y1=\"\(fmt(y))\" x2=\"\(fmt(x(t)))\" y2=\"\(fmt(y + 4))\" stroke=\"#888\"/>\n"
      text += "<text x=\"\(fmt(x(t)))\" y=\"\(fmt(y + 15))\" text-anchor=\"middle\">\(fmt(t, step < 0.01 ? 3 : step < 1 ? 2 : 0)) s</text>\n"
      t += step
    }
    return text
  }

  private func fmt(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }

  private func escape(_ text: String) -> String { SVGText.escape(text) }
}

/// Text helpers shared by the SVG writers.
enum SVGText {
  /// A coordinate or value with `digits` decimals, locale-free.
  static func number(_ value: Double, _ digits: Int = 1) -> String {
    Decimal6.string(value, digits: digits)
  }

  /// `text` escaped for XML content and attributes.
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
