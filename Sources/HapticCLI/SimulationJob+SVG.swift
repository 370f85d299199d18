import HapticRenderer
import HapticSimulator

extension SimulationJob {
  /// Drive (−1…1 of full scale) and acceleration (G) over time per channel, drawn as
  /// per-column min/max so long simulations stay small.
  func writeSVG(to sink: OutputSink) throws -> Double {
    var run = simulation
    var recorder = SampleTrace(channels: configuration.profile.channels.count)
    let duration = run.run(into: &recorder)
    let width = 1200.0
    let left = 60.0
    let plotWidth = width - left - 20
    let driveHeight = 120.0
    let accelHeight = 160.0
    let channelHeight = driveHeight + accelHeight + 60
    let height = 40 + Double(recorder.drive.count) * channelHeight
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
      viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(f(left))" y="18" font-size="14">\(escape(source)) simulated on \(escape(configuration.profile.name))</text>
      <text x="\(f(width - 20))" y="18" text-anchor="end" fill="#555">\(f(duration, 3)) s at \(Int(configuration.physicsRate)) Hz</text>

      """
    for channel in recorder.drive.indices {
      let top = 30 + Double(channel) * channelHeight
      let peak = max(recorder.acceleration[channel].map { abs($0) }.max() ?? 0, 0.05)
      svg += band(
        recorder.drive[channel], scale: 1, top: top + 10, height: driveHeight, left: left, width: plotWidth,
        colour: "#1f6fb2", label: "drive ch \(channel)")
      svg += band(
        recorder.acceleration[channel], scale: Double(peak), top: top + driveHeight + 30, height: accelHeight,
        left: left, width: plotWidth, colour: "#c0392b", label: "accel ±\(f(Double(peak), 2)) G")
    }
    svg += "</svg>\n"
    try sink.write(svg)
    return duration
  }

  /// One plot: a zero line, a label and the min/max polygon of `samples` scaled to ±`scale`.
  private func band(
    _ samples: [Float], scale: Double, top: Double, height: Double, left: Double, width: Double,
    colour: String, label: String
  ) -> String {
    let mid = top + height / 2
    var text = """
      <text x="4" y="\(f(mid + 4))" fill="#555">\(escape(label))</text>
      <line x1="\(f(left))" y1="\(f(mid))" x2="\(f(left + width))" y2="\(f(mid))" stroke="#ccc"/>

      """
    guard !samples.isEmpty else { return text }
    let columns = Int(width)
    let perColumn = max(1, (samples.count + columns - 1) / columns)
    var upper: [String] = []
    var lower: [String] = []
    var index = 0
    while index < samples.count {
      let slice = samples[index..<min(index + perColumn, samples.count)]
      let x = left + Double(index) / Double(samples.count) * width
      let high = Double(slice.max() ?? 0) / scale
      let low = Double(slice.min() ?? 0) / scale
      upper.append("\(f(x)),\(f(mid - high * height / 2))")
      lower.append("\(f(x)),\(f(mid - low * height / 2))")
      index += perColumn
    }
    text += "<polygon fill=\"\(colour)\" fill-opacity=\"0.6\" stroke=\"\(colour)\" stroke-width=\"0.5\" points=\""
    text += (upper + lower.reversed()).joined(separator: " ") + "\"/>\n"
    return text
  }

  private func f(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }

  private func escape(_ text: String) -> String { SVGText.escape(text) }
}
