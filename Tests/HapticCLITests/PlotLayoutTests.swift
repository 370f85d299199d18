import Testing

@testable import HapticCLI

/// The plot model's own records (`SVGPlot.textBoxes`, `traceAreas`) over many more cases than
/// the command tests draw: time spans from a millisecond to a day, windows far from zero, titles
/// of every length. The image tests check that the records match what rsvg-convert draws.
@Suite("plots: the layout model over many spans and titles")
struct PlotLayoutTests {
  /// Pairs of the boxes that overlap.
  private func overlaps(_ boxes: [PlotTextBox]) -> [String] {
    var found: [String] = []
    for (index, box) in boxes.enumerated() {
      for other in boxes[(index + 1)...] where box.box.intersects(other.box) {
        found.append("'\(box.text)' and '\(other.text)'")
      }
    }
    return found
  }

  @Test(
    "Time ticks: at least 4, labels apart and inside the window, for spans from 1 ms to a day",
    arguments: [
      0...0.001, 0...0.0443, 0...0.5, 0...1.043, 0...2.036, 0...7.3, 0...60, 0...599.517, 0...3600, 0...10_800,
      0...86_400, 30...32, 1000.5...1000.6, 599.2...599.517, 12_345.678...12_400,
    ])
  func timeTicks(window: ClosedRange<Double>) {
    var plot = SVGPlot()
    let (panel, _) = plot.panel(
      top: 100, height: 120, xDomain: window, yDomain: -1...1, yTicks: PlotTicks.linear(-1...1, step: 0.5),
      titles: PlotAxisTitles(x: "time (s)", y: "amplitude"))
    let ticks = plot.textBoxes.filter { $0.role == "tick x" }
    #expect(ticks.count >= 4, "\(window): \(ticks.map(\.text))")
    #expect(overlaps(plot.textBoxes).isEmpty, "\(window): \(overlaps(plot.textBoxes))")
    for tick in ticks {
      let value = Double(tick.text) ?? .nan
      #expect(window.contains(value), "\(window): tick \(tick.text)")
      #expect(tick.box.maxX <= plot.width && tick.box.x >= 0, "\(window): '\(tick.text)' leaves the page")
    }
    let labels = Set(ticks.map(\.text))
    #expect(labels.count == ticks.count, "\(window): repeated labels \(ticks.map(\.text))")
    for text in plot.textBoxes {
      #expect(!text.box.intersects(panel.frame), "\(window): '\(text.text)' in the panel")
    }
  }

  @Test("Y ticks: amplitude, frequency bands, acceleration and log scales label every tick apart")
  func yTicks() {
    let cases: [(ClosedRange<Double>, PlotTicks, Double)] = [
      (-1...1, PlotTicks.linear(-1...1, step: 0.5), 110),
      (80...300, PlotTicks.linear(80...300, maxCount: 5), 84),
      (150...190, PlotTicks.linear(150...190, maxCount: 5), 84),
      (-2.5...2.5, PlotTicks.linear(-2.5...2.5, maxCount: 7), 150),
      (-0.05...0.05, PlotTicks.linear(-0.05...0.05, maxCount: 7), 150),
      (0.001...10, PlotTicks.logarithmic(decades: -3, 1), 320),
    ]
    for (domain, ticks, height) in cases {
      var plot = SVGPlot()
      _ = plot.panel(
        top: 100, height: height, xDomain: 0...1, yDomain: domain, logarithmic: domain.lowerBound > 0 && height == 320,
        yTicks: ticks, titles: PlotAxisTitles(x: "time (s)", y: "value"))
      let labels = plot.textBoxes.filter { $0.role == "tick y" }
      #expect(labels.count >= 3, "\(domain): \(labels.map(\.text))")
      #expect(overlaps(plot.textBoxes).isEmpty, "\(domain): \(overlaps(plot.textBoxes))")
      #expect(labels.allSatisfy { $0.box.x >= 0 }, "\(domain): a label leaves the page")
    }
  }

  @Test("Titles of any length fit beside the note: shortened in the middle, keeping start and end")
  func titles() {
    for length in stride(from: 1, through: 400, by: 9) {
      for letter in ["W", "i", "é", "8"] {
        let name = "/data/" + String(repeating: letter, count: length) + ".ahap"
        var plot = SVGPlot()
        plot.title(name: name, rest: " on Simulated LRA (170 Hz, frequency control)", note: "599.517 s, 599517 frames of 1 ms")
        let boxes = plot.textBoxes
        #expect(overlaps(boxes).isEmpty, "\(length) × \(letter): \(overlaps(boxes))")
        let title = boxes[0]
        #expect(title.box.x >= 0 && title.box.maxX <= plot.width, "\(length) × \(letter): title leaves the page")
        if title.text.contains("…") {
          #expect(title.text.hasPrefix("/data/"), "\(title.text)")
          #expect(title.text.hasSuffix(".ahap on Simulated LRA (170 Hz, frequency control)"), "\(title.text)")
        } else {
          #expect(title.text == name + " on Simulated LRA (170 Hz, frequency control)")
        }
      }
    }
  }

  @Test("Ellipsizing: unchanged when it fits, never wider than asked, keeps both ends")
  func ellipsized() {
    let text = "Examples/a-long-pattern-name-for-a-plot-title.ahap"
    #expect(SVGText.ellipsized(text, toWidth: 10_000, size: 14) == text)
    for width in stride(from: 40.0, through: 600, by: 20) {
      let short = SVGText.ellipsized(text, toWidth: width, size: 14)
      #expect(SVGText.width(short, size: 14) <= width, "\(width): \(short)")
      #expect(short.hasPrefix("E") && short.hasSuffix("p"), "\(width): \(short)")
      #expect(short.contains("…") == (SVGText.width(text, size: 14) > width), "\(width): \(short)")
    }
  }
}
