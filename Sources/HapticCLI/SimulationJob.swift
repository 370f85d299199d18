import HapticRenderer
import HapticSimulator

/// One simulation written in one of the `simulate` formats. Each writer runs the (deterministic)
/// simulation once and returns the simulated duration.
struct SimulationJob {
  let simulation: PatternSimulation
  /// The pattern file, for titles.
  let source: String
  /// The pattern's duration (Apple's, docs/semantics.md §5), for the summary.
  let patternDuration: Double

  var configuration: SimulatorConfiguration { simulation.configuration }

  /// `{"board", "file", "physics_rate_hz", "pattern_duration_s", "drive_duration_s",
  /// "simulated_s", "channels": [{channel, kind, peak_g, rms_g, rise_ms, stop_ms}]}`.
  func writeSummary(to sink: OutputSink) throws -> Double {
    var run = simulation
    var analyzer = ResponseAnalyzer(channels: configuration.profile.channels.count, stepRate: configuration.physicsRate)
    let duration = run.run(into: &analyzer)
    let channels = analyzer.metrics.enumerated().map { index, metrics in
      JSONText.object([
        ("channel", .int(index)),
        ("kind", .string(configuration.profile.channels[index].kind.rawValue.uppercased())),
        ("peak_g", .fixed(metrics.peak, digits: 4)),
        ("rms_g", .fixed(metrics.rms, digits: 4)),
        ("rise_ms", metrics.riseMilliseconds.map { .fixed($0, digits: 2) } ?? .null),
        ("stop_ms", metrics.stopMilliseconds.map { .fixed($0, digits: 2) } ?? .null),
      ])
    }
    let summary = JSONText.object([
      ("board", .string(configuration.profile.id)),
      ("file", .string(source)),
      ("physics_rate_hz", .int(Int(configuration.physicsRate))),
      ("pattern_duration_s", .number(patternDuration)),
      ("drive_duration_s", .fixed(run.driveDuration, digits: 6)),
      ("simulated_s", .fixed(duration, digits: 4)),
      ("channels", .array(channels)),
    ])
    try sink.write(summary.rendered + "\n")
    return duration
  }

  /// Rows `time_s,channel,drive,accel_g`, one per physics step per channel.
  func writeCSV(to sink: OutputSink) throws -> Double {
    var run = simulation
    var writer = CSVTrace(sink: sink)
    try sink.write("time_s,channel,drive,accel_g\n")
    let duration = run.run(into: &writer)
    if let error = writer.error { throw error }
    try writer.flush()
    return duration
  }

  /// Full scale of the WAV output, G.
  static let wavFullScale: Float = 4

  /// Acceleration as 16-bit audio at the physics rate, one channel per actuator.
  func writeWAV(to sink: OutputSink) throws -> Double {
    var run = simulation
    var recorder = SampleTrace(channels: configuration.profile.channels.count)
    let duration = run.run(into: &recorder)
    let channels = recorder.acceleration.map { $0.map { $0 / Self.wavFullScale } }
    try sink.write(bytes: WAVFile.encode(channels: channels, sampleRate: Int(configuration.physicsRate)))
    return duration
  }
}

/// Streams CSV rows to a sink (errors are kept and rethrown after the run).
struct CSVTrace: SimulationTrace {
  let sink: OutputSink
  var rows = ""
  var error: (any Error)?

  init(sink: OutputSink) {
    self.sink = sink
    rows.reserveCapacity(1 << 16)
  }

  mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
    rows += Decimal6.string(time, digits: 7)
    rows += ","
    rows += String(channel)
    rows += ","
    rows += Decimal6.string(drive, digits: 6)
    rows += ","
    rows += Decimal6.string(acceleration, digits: 6)
    rows += "\n"
    if rows.utf8.count >= 1 << 16 {
      do { try flush() } catch { self.error = error }
    }
  }

  mutating func flush() throws {
    guard error == nil else { return }
    try sink.write(rows)
    rows.removeAll(keepingCapacity: true)
  }
}

/// Keeps every step's drive and acceleration per channel.
struct SampleTrace: SimulationTrace {
  var drive: [[Float]]
  var acceleration: [[Float]]

  init(channels: Int) {
    drive = Array(repeating: [], count: channels)
    acceleration = Array(repeating: [], count: channels)
  }

  mutating func record(time: Double, channel: Int, drive level: Double, acceleration a: Double) {
    drive[channel].append(Float(level))
    acceleration[channel].append(Float(a))
  }
}
