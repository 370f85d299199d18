import HapticCore
import HapticRenderer

extension RenderJob {
  /// Heights of a render plot's panels.
  private enum Heights {
    static let amplitude = 150.0
    static let frequency = 84.0
  }

  /// Amplitude over time per channel, with the drive frequency under it on channels that have
  /// frequency control (an ERM's has none, so it gets no frequency panel), and the pattern's
  /// events marked above (hover shows each one's type, time, duration, intensity and
  /// sharpness). Only `window` of pattern time is plotted, at full resolution within it; long
  /// renders are drawn as per-column min/max.
  func writeSVG(to sink: OutputSink, window requested: PlotWindowOptions) throws {
    // Pass 1: length.
    var frameCount = 1
    for var render in try channels() {
      var count = 0
      while render.next() != nil { count += 1 }
      frameCount = max(frameCount, count)
    }
    let period = profile.framePeriod
    let end = Double(frameCount) * period
    let window = try requested.window(end: end, of: "render")
    var plot = SVGPlot()
    let span = PlotWindowOptions.describe(window, end: end)
    plot.title(name: source, rest: " on \(profile.name)", note: "\(span), \(frameCount) frames of \(s(period * 1000)) ms")
    plot.legend(legend(), x: plot.plotLeft, y: PlotStyle.legendBaseline)
    var top = PlotStyle.firstTop
    for (channel, var render) in try channels().enumerated() {
      var amplitudes = PlotColumns(window: window, width: plot.plotWidth, samplePeriod: period)
      var hertz = amplitudes
      var index = 0
      while let (frame, _) = render.next() {
        let time = Double(index) * period
        if time >= window.upperBound { break }
        amplitudes.add(amplitude(frame.level), at: time)
        if frame.level != 0 { hertz.add(Double(frame.frequency), at: time) }
        index += 1
      }
      let model = profile.channels[channel]
      let control = model.frequencyControl.map { ", drive \(s($0.lowerBound))–\(s($0.upperBound)) Hz" } ?? ", amplitude only"
      plot.heading("channel \(channel): \(model.kind.rawValue), \(s(model.resonantFrequency)) Hz\(control)", y: top + 14)
      top += PlotStyle.headingHeight
      if playsOn?.contains(channel) ?? true {
        eventLane(on: &plot, top: top, window: window)
      } else {
        plot.text(
          "the pattern does not play on this channel", x: plot.plotLeft, y: top + 12, colour: PlotStyle.muted, role: "lane")
      }
      top += PlotStyle.eventsHeight
      let levels = profile.amplitudeSigned ? -1.0...1.0 : 0.0...1.0
      let (panel, next) = plot.panel(
        top: top, height: Heights.amplitude, xDomain: window, yDomain: levels,
        yTicks: PlotTicks.linear(levels, step: 0.5),
        titles: PlotAxisTitles(x: "time (s)", y: "amplitude (full scale\(profile.amplitudeSigned ? ", below 0 brakes" : ""))"))
      plot.band(in: panel, columns: amplitudes, colour: PlotStyle.amplitude)
      top = next
      if let band = model.frequencyControl {
        let (panel, next) = plot.panel(
          top: top, height: Heights.frequency, xDomain: window, yDomain: band,
          yTicks: PlotTicks.linear(band, maxCount: 5), titles: PlotAxisTitles(x: "time (s)", y: "drive frequency (Hz)"))
        plot.meanLine(in: panel, columns: hertz, colour: PlotStyle.frequency)
        top = next
      }
      top += PlotStyle.channelGap
    }
    try sink.write(plot.rendered(height: top))
  }

  /// The legend: what each trace and mark is.
  private func legend() -> [PlotLegendEntry] {
    var entries = [PlotLegendEntry(mark: .band, colour: PlotStyle.amplitude, label: "amplitude (min/max per pixel)")]
    if profile.channels.contains(where: { $0.frequencyControl != nil }) {
      entries.append(PlotLegendEntry(mark: .line(dashed: false), colour: PlotStyle.frequency, label: "drive frequency"))
    }
    if pattern.events.contains(where: { $0.type == .hapticTransient }) {
      entries.append(PlotLegendEntry(mark: .tick, colour: PlotStyle.transient, label: "transient event"))
    }
    if pattern.events.contains(where: { $0.type == .hapticContinuous }) {
      entries.append(PlotLegendEntry(mark: .block, colour: PlotStyle.continuous, label: "continuous event"))
    }
    return entries
  }

  /// The lane of event marks above a channel's amplitude panel: the haptic events that overlap
  /// `window`, each with a `<title>` that names it.
  private func eventLane(on plot: inout SVGPlot, top: Double, window: ClosedRange<Double>) {
    let lane = PlotRect(x: plot.plotLeft, y: top, width: plot.plotWidth, height: PlotStyle.eventsHeight - 6)
    plot.addTraceArea(lane)
    plot.text("events", x: lane.x - PlotStyle.tickLength - 3, y: lane.y + lane.height / 2 + 4, anchor: .end, role: "lane")
    let span = max(window.upperBound - window.lowerBound, 1e-12)
    func x(_ time: Double) -> Double {
      lane.x + min(max((time - window.lowerBound) / span, 0), 1) * lane.width
    }
    var marks = "<g class=\"events\">\n"
    marks += "<rect x=\"\(f(lane.x))\" y=\"\(f(lane.y))\" width=\"\(f(lane.width))\" height=\"\(f(lane.height))\" "
    marks += "fill=\"#f7f7f7\"/>\n"
    for event in pattern.events where event.type.isHaptic {
      let end = event.time + (event.type == .hapticContinuous ? event.duration ?? 0 : 0)
      guard end >= window.lowerBound, event.time <= window.upperBound else { continue }
      let intensity = event.value(of: .hapticIntensity)
      let title = "<title>\(SVGText.escape(describe(event)))</title>"
      if event.type == .hapticTransient {
        let opacity = f(0.35 + 0.65 * intensity, 2)
        marks += "<line x1=\"\(f(x(event.time)))\" y1=\"\(f(lane.y + 1))\" x2=\"\(f(x(event.time)))\" y2=\"\(f(lane.maxY - 1))\" "
        marks += "stroke=\"\(PlotStyle.transient)\" stroke-width=\"2\" stroke-opacity=\"\(opacity)\">\(title)</line>\n"
      } else {
        let opacity = f(0.2 + 0.6 * intensity, 2)
        marks += "<rect x=\"\(f(x(event.time)))\" y=\"\(f(lane.y + 3))\" width=\"\(f(max(1, x(end) - x(event.time))))\" "
        marks += "height=\"\(f(lane.height - 6))\" fill=\"\(PlotStyle.continuous)\" fill-opacity=\"\(opacity)\">\(title)</rect>\n"
      }
    }
    plot.add(marks + "</g>\n")
  }

  /// `HapticTransient at 0.100 s, duration none, intensity 0.80, sharpness 0.40`.
  func describe(_ event: HapticEvent) -> String {
    let duration = event.duration.map { "\(f($0, 3)) s" } ?? "none"
    return "\(event.type.rawValue) at \(f(event.time, 3)) s, duration \(duration), "
      + "intensity \(f(event.value(of: .hapticIntensity), 2)), sharpness \(f(event.value(of: .hapticSharpness), 2))"
  }

  private func f(_ value: Double, _ digits: Int = 1) -> String { SVGText.number(value, digits) }

  private func s(_ value: Double) -> String { PlotWindowOptions.seconds(value) }
}
