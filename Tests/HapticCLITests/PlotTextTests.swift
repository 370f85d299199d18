import Foundation
import Testing

/// The plots' text: no label overlaps another, a title, a plot area or a trace; every label is on
/// the page; a long file name is shortened in its middle. The boxes are estimated from the SVG
/// (font size × characters) and the estimate is checked against the ink rsvg-convert draws.
@Suite("plots: labels apart from each other, the titles and the traces", .serialized)
struct PlotTextTests {
  @Test("No two text boxes overlap; none lies in a plot area or over a trace pixel; all are on the page")
  func apart() throws {
    let (folder, longName) = try PlotFixtures.longNamedCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, svg) in try PlotFixtures.everyKind(longName: longName) {
      let texts = PlotText.all(in: svg)
      #expect(texts.count > 10, "\(name): \(texts.count) texts")
      for (index, text) in texts.enumerated() {
        for other in texts[(index + 1)...] where text.box.intersects(other.box) {
          Issue.record("\(name): '\(text.text)' \(text.box) overlaps '\(other.text)' \(other.box)")
        }
      }
      let page = PlotText.pageSize(of: svg)
      for text in texts where text.box.x0 < 0 || text.box.y0 < 0 || text.box.x1 > page.width || text.box.y1 > page.height {
        Issue.record("\(name): '\(text.text)' \(text.box) leaves the \(page.width) × \(page.height) page")
      }
      let image = try SVGRaster.render(svg)
      let areas = image.foundAxes().map(\.interior)
      #expect(!areas.isEmpty, "\(name): no plot areas found")
      for text in texts {
        for area in areas where text.box.intersects(area) {
          Issue.record("\(name): '\(text.text)' \(text.box) lies in the plot area \(area)")
        }
        let box = text.box
        let covered = image.count(
          Int(box.x0.rounded(.up)), Int(box.y0.rounded(.up)), Int(box.x1), Int(box.y1), where: image.isColoured)
        if covered > 0 { Issue.record("\(name): '\(text.text)' \(box) lies over \(covered) trace pixels") }
      }
    }
  }

  @Test("The box estimate holds: all the ink of the plots' text lies inside the estimated boxes")
  func estimateHolds() throws {
    let (folder, longName) = try PlotFixtures.longNamedCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, svg) in try PlotFixtures.everyKind(longName: longName) {
      let boxes = PlotText.all(in: svg).map(\.box)
      let image = try SVGRaster.render(PlotText.textOnly(svg))
      var stray: [(Int, Int)] = []
      for y in 0..<image.height {
        for x in 0..<image.width where image.isInk(x, y) {
          if !boxes.contains(where: { $0.contains(pixel: x, y, margin: 1) }) { stray.append((x, y)) }
        }
      }
      #expect(image.count(0, 0, image.width, image.height, where: image.isInk) > 1000, "\(name): text is drawn")
      #expect(stray.isEmpty, "\(name): \(stray.count) ink pixels outside every text box, first at \(stray.prefix(5))")
    }
  }

  @Test("A long file name is shortened in its middle: its start and extension stay, the note stays whole")
  func longName() throws {
    let (folder, longName) = try PlotFixtures.longNamedCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    for command in ["render", "simulate"] {
      let svg = try PlotFixtures.svg([command, longName, "--board", "sim-lra", "--format", "svg"])
      let texts = PlotText.all(in: svg)
      let title = try #require(texts.first { $0.role == "title" }, "\(command): a title")
      #expect(title.text.contains("…"), "\(command): '\(title.text)'")
      #expect(title.text.hasPrefix(String(longName.prefix(12))), "\(command): '\(title.text)' keeps the name's start")
      #expect(title.text.contains("end.ahap "), "\(command): '\(title.text)' keeps the name's end")
      #expect(title.text.hasSuffix(" Simulated LRA (170 Hz, frequency control)"), "\(command): '\(title.text)' keeps the board")
      let note = try #require(texts.first { $0.role == "note" }, "\(command): a note")
      #expect(note.text.hasPrefix("0.") || note.text.hasPrefix("1."), "\(command): note '\(note.text)'")
      #expect(!title.box.intersects(note.box), "\(command): the title runs into the note")
    }
  }
}
