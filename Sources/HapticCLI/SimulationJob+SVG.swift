import HapticRenderer
import HapticSimulator

extension SimulationJob {
  /// Heights of a simulation plot's panels.
  private enum Heights {
    static let drive = 110.0
    static let acceleration = 150.0
  }

  /// Drive (−1…1 of full scale) and acceleration (G) over time per channel, each on its own
  /// time axis, drawn as per-column min/max so long simulations stay small. Only `window` of
  /// pattern time is plotted, at full resolution within it (the simulation still runs from the
  /// start, so the actuator's state in the window is exact).
  func writeSVG(to sink: OutputSink, window requested: PlotWindowOptions) throws -> Double {
    var run = simulation
    var recorder = WindowTrace(
      channels: configuration.profile.channels.count, from: requested.from ?? 0, to: requested.to ?? .infinity)
    let duration = run.run(into: &recorder)
    let window = try requested.window(end: duration, of: "simulation")
    let period = 1 / configuration.physicsRate
    var plot = SVGPlot()
    plot.title(
      name: source, rest: " simulated on \(configuration.profile.name)",
      note: "\(PlotWindowOptions.describe(window, end: duration)), physics at \(Int(configuration.physicsRate)) Hz")
    plot.legend(
      [
        PlotLegendEntry(mark: .band, colour: PlotStyle.amplitude, label: "drive (min/max per pixel)"),
        PlotLegendEntry(mark: .band, colour: PlotStyle.acceleration, label: "acceleration (min/max per pixel)"),
      ], x: plot.plotLeft, y: PlotStyle.legendBaseline)
    var top = PlotStyle.firstTop
    for channel in recorder.drive.indices {
      var drive = PlotColumns(window: window, width: plot.plotWidth, samplePeriod: period)
      var acceleration = drive
      var peak = 0.0
      for index in recorder.drive[channel].indices {
        let time = recorder.start + Double(index) * period
        drive.add(Double(recorder.drive[channel][index]), at: time)
        acceleration.add(Double(recorder.acceleration[channel][index]), at: time)
        if time < window.upperBound { peak = max(peak, Double(abs(recorder.acceleration[channel][index]))) }
      }
      let model = configuration.profile.channels[channel]
      plot.heading("channel \(channel): \(model.kind.rawValue), \(s(model.resonantFrequency)) Hz", y: top + 14)
      top += PlotStyle.headingHeight
      let (drivePanel, next) = plot.panel(
        top: top, height: Heights.drive, xDomain: window, yDomain: -1...1, yTicks: PlotTicks.linear(-1...1, step: 0.5),
        titles: PlotAxisTitles(x: "time (s)", y: "drive (full scale)"))
      plot.band(in: drivePanel, columns: drive, colour: PlotStyle.amplitude)
      let scale = PlotTicks.niceCeiling(max(peak, 0.05))
      let (accelerationPanel, end) = plot.panel(
        top: next, height: Heights.acceleration, xDomain: window, yDomain: -scale...scale,
        yTicks: PlotTicks.linear(-scale...scale, maxCount: 7),
        titles: PlotAxisTitles(x: "time (s)", y: "acceleration (G), peak \(SVGText.number(peak, 2)) G"))
      plot.band(in: accelerationPanel, columns: acceleration, colour: PlotStyle.acceleration)
      top = end + PlotStyle.channelGap
    }
    try sink.write(plot.rendered(height: top))
    return duration
  }

  private func s(_ value: Double) -> String { PlotWindowOptions.seconds(value) }
}

/// Keeps each step's drive and acceleration per channel from the step at `from` seconds on,
/// up to the one at `to`: what a plot of that window needs, and no more.
struct WindowTrace: SimulationTrace {
  var drive: [[Float]]
  var acceleration: [[Float]]
  /// The time of the first step kept.
  private(set) var start = 0.0
  private let from: Double
  private let to: Double
  private var started = false

  init(channels: Int, from: Double, to: Double) {
    drive = Array(repeating: [], count: channels)
    acceleration = Array(repeating: [], count: channels)
    self.from = from
    self.to = to
  }

  mutating func record(time: Double, channel: Int, drive level: Double, acceleration a: Double) {
    guard time >= from, time <= to else { return }
    if !started {
      started = true
      start = time
    }
    drive[channel].append(Float(level))
    acceleration[channel].append(Float(a))
  }
}
