import Foundation
import Testing

/// The plots' axes, checked on the image rsvg-convert makes of them: every panel has an x (time)
/// axis and a y axis with tick marks, a label at every tick, both axis titles and a trace.
@Suite("plots: axes, ticks and labels on the rendered image", .serialized)
struct PlotAxesTests {
  static let pair = "Examples/pair-lra.ahap"

  @Test("render on an LRA: amplitude and frequency panels, each with both axes, ticks, labels and a trace")
  func renderLRA() throws {
    let image = try SVGRaster.render(PlotFixtures.svg(["render", Self.pair, "--board", "sim-lra", "--format", "svg"]))
    let axes = image.foundAxes()
    #expect(axes.count == 2, "amplitude and frequency panels, found \(axes.count)")
    for (index, panel) in axes.enumerated() { image.expectComplete(panel, "render sim-lra panel \(index)") }
  }

  @Test("render on an ERM + LRA board: the ERM channel has no frequency panel and leaves no empty band")
  func renderERM() throws {
    let svg = try PlotFixtures.svg(["render", Self.pair, "--board", PlotFixtures.ermAndLRA, "--format", "svg"])
    let image = try SVGRaster.render(svg)
    let axes = image.foundAxes()
    #expect(axes.count == 3, "ERM amplitude; LRA amplitude and frequency: found \(axes.count)")
    for (index, panel) in axes.enumerated() { image.expectComplete(panel, "render uno-hbridge panel \(index)") }
    let frequencyTitles = PlotText.all(in: svg).filter { $0.text.contains("frequency (Hz)") }
    #expect(frequencyTitles.count == 1, "one frequency panel, the LRA's")
    // An empty frequency band on the ERM channel would be a tall stretch of blank rows.
    #expect(image.widestBlankBand() < 40, "blank band of \(image.widestBlankBand()) rows")
    let erm = try SVGRaster.render(PlotFixtures.svg(["render", Self.pair, "--board", "sim-erm", "--format", "svg"]))
    #expect(erm.foundAxes().count == 1, "sim-erm: the amplitude panel only")
    #expect(erm.widestBlankBand() < 40, "sim-erm: blank band of \(erm.widestBlankBand()) rows")
  }

  @Test("simulate: drive and acceleration panels per channel, each on its own time axis")
  func simulate() throws {
    let image = try SVGRaster.render(
      PlotFixtures.svg(["simulate", Self.pair, "--board", PlotFixtures.ermAndLRA, "--format", "svg"]))
    let axes = image.foundAxes()
    #expect(axes.count == 4, "two panels for each of two channels, found \(axes.count)")
    for (index, panel) in axes.enumerated() { image.expectComplete(panel, "simulate uno-hbridge panel \(index)") }
  }

  @Test("characterize: a log-G panel per channel with its intensity axis")
  func characterize() throws {
    let image = try SVGRaster.render(
      PlotFixtures.svg(["characterize", "--board", PlotFixtures.ermAndLRA, "--format", "svg"]))
    let axes = image.foundAxes()
    #expect(axes.count == 2, "one panel per channel, found \(axes.count)")
    for (index, panel) in axes.enumerated() {
      image.expectComplete(panel, "characterize panel \(index)")
      #expect(panel.xTicks.count == 11, "intensity 0, 0.1, … 1")
      #expect(panel.yTicks.count >= 6, "1-2-5 ticks over at least two decades")
    }
  }

  @Test("one visual style: the same page width, font, left margin and axis colour in all three plots")
  func oneStyle() throws {
    let plots = [
      try PlotFixtures.svg(["render", Self.pair, "--board", "sim-lra", "--format", "svg"]),
      try PlotFixtures.svg(["simulate", Self.pair, "--board", "sim-lra", "--format", "svg"]),
      try PlotFixtures.svg(["characterize", "--board", "sim-lra", "--format", "svg"]),
    ]
    let roots = plots.map(PlotText.rootAttributes(of:))
    for key in ["width", "font-family", "font-size"] {
      #expect(Set(roots.map { $0[key] ?? "-" }).count == 1, "\(key): \(roots.map { $0[key] ?? "-" })")
    }
    let images = try plots.map(SVGRaster.render)
    let axes = images.map { $0.foundAxes() }
    #expect(axes.allSatisfy { !$0.isEmpty }, "axes in every plot: \(axes.map(\.count))")
    let lefts = Set(axes.flatMap { $0.map(\.left) })
    #expect(lefts.count == 1, "y axes at \(lefts)")
    let colours = zip(images, axes).flatMap { image, found in
      found.map { "\(image.rgb($0.left, ($0.top + $0.bottom) / 2))" }
    }
    #expect(Set(colours).count == 1, "axis colours \(Set(colours))")
    let sizes = Set(plots.flatMap { PlotText.all(in: $0).filter { $0.role.hasPrefix("tick") }.map(\.size) })
    #expect(sizes.count == 1, "tick label sizes \(sizes)")
  }
}
