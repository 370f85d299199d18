import HapticCore
import HapticRenderer
import HapticWire

/// One render of a pattern for a board, written in one of the `render` formats.
struct RenderJob {
  let pattern: HapticPattern
  let profile: BoardProfile
  let options: RenderOptions
  /// The pattern file, for titles.
  let source: String

  /// Fresh renderers, one per channel.
  func channels() throws -> [ChannelRender] {
    var renders: [ChannelRender] = []
    for channel in profile.channels.indices {
      do {
        renders.append(try ChannelRender(pattern: pattern, profile: profile, channel: channel, options: options))
      } catch {
        throw CLIError(error.description)
      }
    }
    return renders
  }

  /// Full-scale amplitude (-1…1) of a level.
  func amplitude(_ level: Int) -> Double {
    Double(level) / Double(profile.maxLevel)
  }

  /// Rows `time_s,channel,amplitude,frequency_hz`, one per frame per channel; channels that
  /// finish early report zero drive until the last one ends.
  func writeCSV(to sink: OutputSink) throws {
    try sink.write("time_s,channel,amplitude,frequency_hz\n")
    var renders = try channels()
    var done = Array(repeating: false, count: renders.count)
    var index = 0
    while done.contains(false) {
      var rows = ""
      let time = Decimal6.string(Double(index) * profile.framePeriod, digits: 6)
      for channel in renders.indices {
        var level = 0
        var hz = 0
        if !done[channel], let (frame, _) = renders[channel].next() {
          level = frame.level
          hz = frame.frequency
        } else {
          done[channel] = true
        }
        if done.allSatisfy({ $0 }) { break }
        rows += "\(time),\(channel),\(Decimal6.string(amplitude(level), digits: 6)),\(hz)\n"
      }
      try sink.write(rows)
      index += 1
    }
  }

  /// A wire framer for `channel`.
  func framer(channel: Int) -> SegmentFramer {
    SegmentFramer(channel: UInt8(channel), amplitudeBits: profile.amplitudeBits, framePeriod: profile.framePeriod)
  }

  /// Totals over all channels, and the bytes and frames the segments take on the wire.
  func stats() throws -> (RenderStats, wireBytes: Int, wireFrames: Int) {
    var total = RenderStats()
    var wireBytes = 0
    var wireFrames = 0
    for (channel, var render) in try channels().enumerated() {
      var framer = framer(channel: channel)
      while let (_, closed) = render.next() {
        if let closed { _ = framer.add(closed) }
      }
      if let last = render.finish() { _ = framer.add(last) }
      _ = framer.finish()
      total.merge(render.stats)
      wireBytes += framer.wireBytes
      wireFrames += framer.frames
    }
    return (total, wireBytes, wireFrames)
  }

  /// The stats as the JSON members shared by `stats` and `json`.
  func statsMembers(_ stats: RenderStats, wireBytes: Int, wireFrames: Int) throws -> [(String, JSONText)] {
    let band = try FrameRenderer(pattern: pattern, profile: profile, options: options).sharpnessBand
    return [
      ("board", .string(profile.id)),
      ("channels", .int(profile.channels.count)),
      ("frame_period_s", .number(profile.framePeriod)),
      ("duration_s", .fixed(stats.duration, digits: 6)),
      ("pattern_duration_s", .number(pattern.duration)),
      ("frames", .int(stats.frames)),
      ("segments", .int(stats.segments)),
      ("brake_segments", .int(stats.brakeSegments)),
      ("wire_bytes", .int(wireBytes)),
      ("wire_frames", .int(wireFrames)),
      ("segment_bytes", .int(stats.segmentBytes)),
      ("naive_bytes", .int(stats.naiveBytes)),
      ("compression", .fixed(stats.naiveBytes > 0 ? Double(stats.segmentBytes) / Double(stats.naiveBytes) : 0, digits: 6)),
      ("peak_amplitude", .fixed(stats.peakAmplitude, digits: 6)),
      ("intensity_mapping", .string(options.intensityMapping.rawValue)),
      ("sharpness_band_hz", band.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null),
    ]
  }

  /// One JSON object with the render statistics.
  func writeStats(to sink: OutputSink) throws {
    let (stats, wireBytes, wireFrames) = try stats()
    try sink.write(JSONText.object(try statsMembers(stats, wireBytes: wireBytes, wireFrames: wireFrames)).rendered + "\n")
  }
}
