/// A rectangle in page coordinates (px, y down).
struct PlotRect: Equatable {
  var x: Double
  var y: Double
  var width: Double
  var height: Double

  var maxX: Double { x + width }
  var maxY: Double { y + height }

  /// Whether the two rectangles share any area (touching edges do not count).
  func intersects(_ other: PlotRect) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }
}

/// A text an ``SVGPlot`` emitted: its estimated box (``SVGText/width(_:size:)`` wide, from
/// ascender to descender), what it says, and its role (`title`, `tick`, `legend`, …).
struct PlotTextBox: Equatable {
  var box: PlotRect
  var text: String
  var role: String
}

/// One entry of a plot legend: a swatch drawn like the trace it names, and its label.
struct PlotLegendEntry {
  /// How the swatch is drawn.
  enum Mark {
    /// A filled band (a min/max trace).
    case band
    /// A line (a curve), dashed or not.
    case line(dashed: Bool)
    /// A short vertical line (a transient event).
    case tick
    /// A translucent block (a continuous event).
    case block
  }

  var mark: Mark
  var colour: String
  var label: String
}

/// An SVG figure in ``PlotStyle``: title, legend, headings, panels with axes, and traces.
///
/// Every text goes through ``text(_:x:y:anchor:size:colour:role:)``, which records its box in
/// ``textBoxes``; every plot area is recorded in ``traceAreas``. The writers lay their texts out
/// so that no two boxes overlap and none falls inside a trace area; the tests check the result.
struct SVGPlot {
  /// Text alignment on its x coordinate.
  enum Anchor: String {
    case start, middle, end
  }

  /// Page width.
  let width: Double
  /// Right edge of the plot areas.
  let plotRight: Double
  /// Left edge of the plot areas.
  let plotLeft = PlotStyle.left
  private var body = ""
  /// Markup drawn over the traces (axis lines and tick marks).
  private var overlay = ""
  /// The boxes of every text emitted so far.
  private(set) var textBoxes: [PlotTextBox] = []
  /// Every plot area (panels and event lanes) laid out so far.
  private(set) var traceAreas: [PlotRect] = []

  /// A page `PlotStyle.width` wide whose plots leave `rightMargin` px on their right.
  init(rightMargin: Double = PlotStyle.right) {
    width = PlotStyle.width
    plotRight = PlotStyle.width - rightMargin
  }

  /// Width of the plot areas.
  var plotWidth: Double { plotRight - plotLeft }

  /// Appends raw SVG markup (shapes).
  mutating func add(_ markup: String) {
    body += markup
  }

  /// Appends markup drawn over everything in `add`ed (axes stay visible over a trace that
  /// runs along them).
  mutating func addOverlay(_ markup: String) {
    overlay += markup
  }

  /// Records a plot area (no text may fall inside it).
  mutating func addTraceArea(_ area: PlotRect) {
    traceAreas.append(area)
  }

  /// A text with its baseline at `y`, recorded in ``textBoxes``.
  mutating func text(
    _ string: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = PlotStyle.fontSize,
    colour: String = PlotStyle.axis, role: String
  ) {
    let width = SVGText.width(string, size: size)
    let minX = anchor == .start ? x : anchor == .middle ? x - width / 2 : x - width
    textBoxes.append(
      PlotTextBox(box: PlotRect(x: minX, y: y - 0.8 * size, width: width, height: 1.05 * size), text: string, role: role))
    var attributes = "x=\"\(f(x))\" y=\"\(f(y))\" class=\"\(role)\""
    if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
    if size != PlotStyle.fontSize { attributes += " font-size=\"\(f(size))\"" }
    if colour != PlotStyle.axis { attributes += " fill=\"\(colour)\"" }
    body += "<text \(attributes)>\(SVGText.escape(string))</text>\n"
  }

  /// The title row: `name` + `rest` at the left, shortened to fit (the name first, in its
  /// middle, so a long file name keeps its start and extension), and `note` at the right.
  mutating func title(name: String, rest: String, note: String) {
    let noteWidth = SVGText.width(note, size: PlotStyle.fontSize)
    let pageRight = width - PlotStyle.right
    let room = pageRight - plotLeft - noteWidth - 24
    let size = PlotStyle.titleSize
    let nameRoom = max(room - SVGText.width(rest, size: size), room * 0.4)
    let title = SVGText.ellipsized(
      SVGText.ellipsized(name, toWidth: nameRoom, size: size) + rest, toWidth: room, size: size)
    text(title, x: plotLeft, y: PlotStyle.titleBaseline, size: size, role: "title")
    text(note, x: pageRight, y: PlotStyle.titleBaseline, anchor: .end, colour: PlotStyle.muted, role: "note")
  }

  /// A legend: its entries in a row from (`x`, baseline `y`), or one under another.
  mutating func legend(_ entries: [PlotLegendEntry], x: Double, y: Double, vertical: Bool = false) {
    body += "<g class=\"legend\">\n"
    var cursor = x
    var baseline = y
    for entry in entries {
      swatch(entry, x: cursor, y: baseline - 4)
      text(entry.label, x: cursor + 24, y: baseline, role: "legend")
      if vertical {
        baseline += 18
      } else {
        cursor += 24 + SVGText.width(entry.label, size: PlotStyle.fontSize) + 22
      }
    }
    body += "</g>\n"
  }

  /// A legend swatch 18 px wide, centred on `y`.
  private mutating func swatch(_ entry: PlotLegendEntry, x: Double, y: Double) {
    let colour = entry.colour
    switch entry.mark {
    case .band:
      body += "<rect x=\"\(f(x))\" y=\"\(f(y - 5))\" width=\"18\" height=\"10\" fill=\"\(colour)\" "
      body += "fill-opacity=\"0.55\" stroke=\"\(colour)\"/>\n"
    case .line(let dashed):
      let dash = dashed ? " stroke-dasharray=\"5,3\"" : ""
      body += "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x + 18))\" y2=\"\(f(y))\" "
      body += "stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>\n"
    case .tick:
      body += "<line x1=\"\(f(x + 9))\" y1=\"\(f(y - 6))\" x2=\"\(f(x + 9))\" y2=\"\(f(y + 6))\" "
      body += "stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
    case .block:
      body += "<rect x=\"\(f(x))\" y=\"\(f(y - 5))\" width=\"18\" height=\"10\" fill=\"\(colour)\" fill-opacity=\"0.5\"/>\n"
    }
  }

  /// A channel heading with its baseline at `y`.
  mutating func heading(_ string: String, y: Double) {
    text(string, x: plotLeft, y: y, size: PlotStyle.headingSize, role: "heading")
  }

  /// The finished document, `height` px tall.
  func rendered(height: Double) -> String {
    """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
    viewBox="0 0 \(f(width)) \(f(height))" font-family="\(PlotStyle.fontFamily)" \
    font-size="\(f(PlotStyle.fontSize))" fill="\(PlotStyle.axis)">
    <rect width="100%" height="100%" fill="white"/>

    """ + body + overlay + "</svg>\n"
  }

  private func f(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }
}
