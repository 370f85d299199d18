import HapticCore
import HapticRenderer

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
    for (channel, var render) in try channels().enumerated() {
      if channel > 0 { try sink.write(",") }
      let kind = profile.channels[channel].kind.rawValue
      try sink.write("{\"channel\":\(channel),\"actuator\":\"\(kind)\",\"segments\":[")
      var first = true
      func emit(_ segment: Segment) throws {
        try sink.write((first ? "" : ",") + segmentJSON(segment).rendered)
        first = false
      }
      while let (_, closed) = render.next() {
        if let closed { try emit(closed) }
      }
      if let last = render.finish() { try emit(last) }
      try sink.write("]}")
      total.merge(render.stats)
    }
    try sink.write("],\"stats\":" + JSONText.object(try statsMembers(total)).rendered + "}\n")
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
