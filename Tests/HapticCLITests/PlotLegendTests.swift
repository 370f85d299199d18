import Foundation
import Testing

/// The plots' legends (a swatch drawn like each trace, beside its name) and the events' hover
/// text (`<title>`).
@Suite("plots: legends and event hover text", .serialized)
struct PlotLegendTests {
  /// A transient and a continuous event with known values.
  static let twoEvents = """
    {"Version": 1, "Pattern": [
      {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.4}]}},
      {"Event": {"Time": 0.3, "EventType": "HapticContinuous", "EventDuration": 0.25, "EventParameters": [
        {"ParameterID": "HapticIntensity", "ParameterValue": 0.5}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}}
    ]}
    """

  @Test("Every event mark names its type, time, duration, intensity and sharpness on hover")
  func eventTitles() throws {
    let (folder, path) = try CLIRunner.scratchFile("two-events.ahap", Self.twoEvents)
    defer { try? FileManager.default.removeItem(at: folder) }
    for board in ["sim-lra", PlotFixtures.ermAndLRA] {
      let svg = try PlotFixtures.svg(["render", path, "--board", board, "--format", "svg"])
      let channels = board == "sim-lra" ? 1 : 2
      let expected = [
        "HapticTransient at 0.100 s, duration none, intensity 0.80, sharpness 0.40",
        "HapticContinuous at 0.300 s, duration 0.250 s, intensity 0.50, sharpness 0.90",
      ]
      #expect(PlotText.hoverTitles(in: svg) == Array([[String]](repeating: expected, count: channels).joined()), "\(board)")
      // The title belongs to the mark: a line for the transient, a block for the continuous event.
      #expect(svg.contains("\"><title>HapticTransient at 0.100 s"))
      #expect(svg.contains("</title></line>") && svg.contains("</title></rect>"))
    }
  }

  @Test("Each plot has a legend naming its traces, each beside a swatch of the trace's colour")
  func legends() throws {
    let (folder, path) = try CLIRunner.scratchFile("two-events.ahap", Self.twoEvents)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plots: [(String, [String], [String])] = [
      (
        "render", ["render", path, "--board", "sim-lra", "--format", "svg"],
        ["amplitude", "drive frequency", "transient event", "continuous event"]
      ),
      ("simulate", ["simulate", path, "--board", "sim-lra", "--format", "svg"], ["drive", "acceleration"]),
      ("characterize", ["characterize", "--board", "sim-lra", "--format", "svg"], ["sharpness 0.00", "threshold"]),
    ]
    for (name, arguments, names) in plots {
      let svg = try PlotFixtures.svg(arguments)
      let legend = PlotText.all(in: svg).filter { $0.role == "legend" }
      for expected in names {
        #expect(
          legend.contains { $0.text.hasPrefix(expected) }, "\(name): no legend entry '\(expected)' in \(legend.map(\.text))")
      }
      let image = try SVGRaster.render(svg)
      for entry in legend {
        let box = entry.box
        let swatch = image.count(Int(box.x0) - 24, Int(box.y0), Int(box.x0) - 4, Int(box.y1), where: image.isColoured)
        #expect(swatch > 0, "\(name): no swatch beside '\(entry.text)'")
      }
    }
  }
}
