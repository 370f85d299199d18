import HapticCore
import HapticRenderer
import HapticWire

extension RenderJob {
  /// The segment stream per channel (streamed as segments close), then the stats.
  ///
  /// `{"board":…, "frame_period_s":…, "channels":[{"channel":0, "actuator":"LRA",
  /// "segments":[{"start_s":…, "frames":…, "amplitude":[a,b], "frequency_hz":[f,g],
  /// "brake":false}, …]}, …], "stats":{…}}`
  func writeJSON(to sink: OutputSink) throws {
    try sink.write(
      "{\"board\":\(JSONText.quoted(profile.id)),\"frame_period_s\":\(JSONText.number(profile.framePeriod).rendered),\"channels\":[")
    var total = RenderStats()
    var wireBytes = 0
    var wireFrames = 0
    for (channel, var render) in try channels().enumerated() {
      var framer = framer(channel: channel)
      if channel > 0 { try sink.write(",") }
      let kind = profile.channels[channel].kind.rawValue
      try sink.write("{\"channel\":\(channel),\"actuator\":\"\(kind)\",\"segments\":[")
      var first = true
      func emit(_ segment: Segment) throws {
        try sink.write((first ? "" : ",") + segmentJSON(segment).rendered)
        first = false
        _ = framer.add(segment)
      }
      while let (_, closed) = render.next() {
        if let closed { try emit(closed) }
      }
      if let last = render.finish() { try emit(last) }
      try sink.write("]}")
      _ = framer.finish()
      total.merge(render.stats)
      wireBytes += framer.wireBytes
      wireFrames += framer.frames
    }
    let members = try statsMembers(total, wireBytes: wireBytes, wireFrames: wireFrames)
    try sink.write("],\"stats\":" + JSONText.object(members).rendered + "}\n")
  }

  private func segmentJSON(_ segment: Segment) -> JSONText {
    .object([
      ("start_s", .fixed(Double(segment.startFrame) * profile.framePeriod, digits: 6)),
      ("frames", .int(segment.frames)),
      ("amplitude", .array([.fixed(amplitude(segment.startLevel), digits: 6), .fixed(amplitude(segment.endLevel), digits: 6)])),
      ("frequency_hz", .array([.int(segment.startFrequency), .int(segment.endFrequency)])),
      ("brake", .bool(segment.isBrake)),
    ])
  }
}
