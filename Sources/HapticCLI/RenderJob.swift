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
  /// The channels the pattern plays on (nil: every one); the others render silence.
  var playsOn: [Int]? = nil

  /// Fresh renderers, one per channel.
  func channels() throws -> [ChannelRender] {
    var renders: [ChannelRender] = []
    for channel in profile.channels.indices {
      let plays = playsOn?.contains(channel) ?? true
      do {
        renders.append(try ChannelRender(pattern: plays ? pattern : HapticPattern(), profile: profile, channel: channel, options: options))
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

  /// What a full render adds up to: the render statistics of all channels, and the bytes and
  /// frames their segments take on the wire.
  struct Totals {
    var stats = RenderStats()
    var wireBytes = 0
    var wireFrames = 0
    /// The bare segment payload bytes (``HapticWire/SegmentPayload``).
    var segmentBytes = 0
  }

  /// Renders every channel through its segments, framing them as the wire would.
  ///
  /// - Parameters:
  ///   - begin: called before a channel's first segment, with the channel index.
  ///   - segment: called for every segment, in order.
  ///   - end: called after a channel's last segment.
  func renderSegments(
    begin: (Int) throws -> Void = { _ in }, segment: (Segment) throws -> Void = { _ in },
    end: (Int) throws -> Void = { _ in }
  ) throws -> Totals {
    var totals = Totals()
    for (channel, var render) in try channels().enumerated() {
      var framer = SegmentFramer(
        channel: UInt8(channel), levelBytes: profile.levelBytes, framePeriod: profile.framePeriod)
      try begin(channel)
      func emit(_ closed: Segment) throws {
        try segment(closed)
        _ = framer.add(closed)
      }
      while let (_, closed) = render.next() {
        if let closed { try emit(closed) }
      }
      if let last = render.finish() { try emit(last) }
      try end(channel)
      _ = framer.finish()
      totals.stats.merge(render.stats)
      totals.wireBytes += framer.wireBytes
      totals.wireFrames += framer.frames
      totals.segmentBytes += framer.segmentBytes
    }
    return totals
  }

  /// The stats as the JSON members shared by `stats` and `json`.
  func statsMembers(_ totals: Totals) throws -> [(String, JSONText)] {
    let stats = totals.stats
    // The band of the first channel the pattern plays on that has one (an ERM has none).
    let renderers = profile.channels.indices.lazy.filter { playsOn?.contains($0) ?? true }
      .compactMap { try? FrameRenderer(pattern: pattern, profile: profile, channel: $0, options: options) }
    let band = renderers.compactMap(\.sharpnessBand).first
    // The mapping in use: a `.haptic` clip plays by the square law whatever the option says.
    let mapping = renderers.first?.intensityMapping ?? options.intensityMapping
    return [
      ("board", .string(profile.id)),
      ("channels", .int(profile.channels.count)),
      ("frame_period_s", .number(profile.framePeriod)),
      ("drive_duration_s", .fixed(stats.driveDuration, digits: 6)),
      ("pattern_duration_s", .number(pattern.duration)),
      ("frames", .int(stats.frames)),
      ("segments", .int(stats.segments)),
      ("brake_segments", .int(stats.brakeSegments)),
      ("wire_bytes", .int(totals.wireBytes)),
      ("wire_frames", .int(totals.wireFrames)),
      ("segment_bytes", .int(totals.segmentBytes)),
      ("naive_bytes", .int(stats.naiveBytes)),
      ("compression", .fixed(stats.naiveBytes > 0 ? Double(totals.segmentBytes) / Double(stats.naiveBytes) : 0, digits: 6)),
      ("peak_amplitude", .fixed(stats.peakAmplitude, digits: 6)),
      ("intensity_mapping", .string(mapping.rawValue)),
      ("sharpness_band_hz", band.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null),
    ]
  }

  /// One JSON object with the render statistics.
  func writeStats(to sink: OutputSink) throws {
    try sink.write(JSONText.object(try statsMembers(try renderSegments())).rendered + "\n")
  }
}
