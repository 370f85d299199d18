import Foundation

@testable import HapticCLI

/// A rectangle in image coordinates (px, y down).
struct PlotBox: CustomStringConvertible {
  var x0: Double
  var y0: Double
  var x1: Double
  var y1: Double

  /// Whether the two boxes share any area (touching edges do not count).
  func intersects(_ other: PlotBox) -> Bool {
    x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1
  }

  /// Whether the pixel (`x`, `y`) lies in the box grown by `margin` px.
  func contains(pixel x: Int, _ y: Int, margin: Double) -> Bool {
    Double(x) + 1 > x0 - margin && Double(x) < x1 + margin && Double(y) + 1 > y0 - margin && Double(y) < y1 + margin
  }

  var description: String { "(\(Int(x0)),\(Int(y0)))–(\(Int(x1)),\(Int(y1)))" }
}

/// One `<text>` element of a plot and the box it takes: as wide as the plot writer's rule says
/// (per-character widths × font size, an upper bound for DejaVu Sans), from 0.8 of the font size
/// above the baseline to 0.25 below. `PlotTextTests` checks the rule against rsvg's ink.
struct PlotText {
  var text: String
  var role: String
  var size: Double
  var box: PlotBox

  /// The advance-width bound the writers use (`SVGText.width` in HapticCLI): the same rule,
  /// which `PlotTextTests` checks against rsvg's ink.
  static func width(_ text: String, size: Double) -> Double {
    SVGText.width(text, size: size)
  }

  /// Every `<text>` of `svg` (font size from the element, else the root's, else 16).
  static func all(in svg: String) -> [PlotText] {
    let root = attributes(of: matches(#"<svg([^>]*)>"#, in: svg).first?[1] ?? "")
    let rootSize = Double(root["font-size"] ?? "") ?? 16
    return matches(#"<text([^>]*)>([^<]*)</text>"#, in: svg).map { match in
      let attributes = attributes(of: match[1])
      let text = unescape(match[2])
      let size = Double(attributes["font-size"] ?? "") ?? rootSize
      let x = Double(attributes["x"] ?? "") ?? 0
      let y = Double(attributes["y"] ?? "") ?? 0
      let width = width(text, size: size)
      let anchor = attributes["text-anchor"] ?? "start"
      let x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
      return PlotText(
        text: text, role: attributes["class"] ?? "", size: size,
        box: PlotBox(x0: x0, y0: y - 0.8 * size, x1: x0 + width, y1: y + 0.25 * size))
    }
  }

  /// `svg` with its text only: the root element, a white page and the `<text>` elements.
  static func textOnly(_ svg: String) -> String {
    let root = matches(#"<svg[^>]*>"#, in: svg).first?[0] ?? "<svg>"
    let texts = matches(#"<text[^>]*>[^<]*</text>"#, in: svg).map { $0[0] }
    return root + "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + texts.joined(separator: "\n") + "\n</svg>\n"
  }

  /// The contents of every `<title>` (hover text) of `svg`.
  static func hoverTitles(in svg: String) -> [String] {
    matches(#"<title>([^<]*)</title>"#, in: svg).map { unescape($0[1]) }
  }

  /// The width and height attributes of the root element.
  static func pageSize(of svg: String) -> (width: Double, height: Double) {
    let root = attributes(of: matches(#"<svg([^>]*)>"#, in: svg).first?[1] ?? "")
    return (Double(root["width"] ?? "") ?? 0, Double(root["height"] ?? "") ?? 0)
  }

  /// The attributes of the root element.
  static func rootAttributes(of svg: String) -> [String: String] {
    attributes(of: matches(#"<svg([^>]*)>"#, in: svg).first?[1] ?? "")
  }

  private static func attributes(of text: String) -> [String: String] {
    var result: [String: String] = [:]
    for match in matches(#"([A-Za-z][\w:-]*)="([^"]*)""#, in: text) { result[match[1]] = unescape(match[2]) }
    return result
  }

  private static func matches(_ pattern: String, in text: String) -> [[String]] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    let source = text as NSString
    return expression.matches(in: text, range: NSRange(location: 0, length: source.length)).map { match in
      (0..<match.numberOfRanges).map { index in
        let range = match.range(at: index)
        return range.location == NSNotFound ? "" : source.substring(with: range)
      }
    }
  }

  private static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
  }
}
