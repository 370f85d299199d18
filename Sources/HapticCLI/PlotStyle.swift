import Foundation

/// The one visual style of every SVG plot hapticctl writes (`render`, `simulate`,
/// `characterize`): page width, margins, fonts, colours and the heights of the plot rows.
enum PlotStyle {
  /// Page width, px (user units; rsvg-convert renders one per pixel).
  static let width = 1200.0
  /// Left margin: room for the y tick labels right-aligned against the y axis.
  static let left = 84.0
  /// Right margin when nothing stands to the right of the plots.
  static let right = 28.0
  /// Tick and label font size; titles are larger.
  static let fontSize = 11.0
  static let titleSize = 14.0
  static let headingSize = 12.0
  static let fontFamily = "DejaVu Sans, Verdana, sans-serif"

  /// Axis lines, tick marks and labels (dark, so a reviewer's eye and the image tests find them).
  static let axis = "#333333"
  /// Grid lines at the ticks.
  static let grid = "#e4e4e4"
  /// Secondary text (notes under the title).
  static let muted = "#555555"
  /// Trace colours, in the order the plots use them.
  static let amplitude = "#1f6fb2"
  static let frequency = "#d9822b"
  static let acceleration = "#c0392b"
  static let transient = "#7b2d8e"
  static let continuous = "#2e9e5b"
  /// Curve colours of the characterize plot, one per sharpness.
  static let series = ["#6a3d9a", "#1f6fb2", "#2e9e5b", "#d9822b", "#c0392b"]

  /// The title row, and the legend row under it.
  static let titleBaseline = 22.0
  static let legendBaseline = 44.0
  /// Where the first channel starts.
  static let firstTop = 62.0
  /// A channel's heading row.
  static let headingHeight = 20.0
  /// The row above a panel that holds its y-axis title.
  static let axisTitleHeight = 16.0
  /// Below a panel: tick marks, tick labels and the x-axis title.
  static let tickLength = 5.0
  static let belowPanel = 40.0
  /// The events lane above a render's amplitude panel.
  static let eventsHeight = 22.0
  /// Space after a channel's last panel.
  static let channelGap = 14.0
}

/// Text helpers shared by the SVG writers: numbers, escaping, and the width estimate that
/// keeps labels apart.
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

  /// An upper bound of the advance width of `text` at `size` px in a sans-serif font
  /// (DejaVu Sans, the widest common one): narrow marks, digits and lower case, wide letters,
  /// capitals, and symbols (anything outside ASCII) at a full em.
  static func width(_ text: String, size: Double) -> Double {
    var ems = 0.0
    for character in text.unicodeScalars {
      switch character {
      case " ", ".", ",", ":", ";", "'", "!", "|", "i", "j", "l", "I", "(", ")", "[", "]", "/", "-", "f", "t", "r":
        ems += 0.42
      case "m", "w", "M", "W", "%":
        ems += 1.0
      case "A"..."Z":
        ems += 0.8
      case "0"..."9", "a"..."z", "_", "$", "?", "*":
        ems += 0.66
      default:
        ems += 1.0
      }
    }
    return ems * size
  }

  /// `text` shortened in the middle with "…" so that it is at most `width` px wide at `size`,
  /// keeping its start and its end (a long file name keeps its folder's start and its
  /// extension); unchanged when it fits.
  static func ellipsized(_ text: String, toWidth width: Double, size: Double) -> String {
    guard Self.width(text, size: size) > width else { return text }
    let characters = Array(text)
    var keep = characters.count - 1
    while keep > 1 {
      let head = (keep + 1) / 2
      let candidate = String(characters[..<head]) + "…" + String(characters[(characters.count - (keep - head))...])
      if Self.width(candidate, size: size) <= width { return candidate }
      keep -= 1
    }
    return "…"
  }
}
