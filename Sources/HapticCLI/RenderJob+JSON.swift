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
    var first = true
    let totals = try renderSegments(
      begin: { channel in
        let kind = profile.channels[channel].kind.rawValue
        try sink.write((channel > 0 ? "," : "") + "{\"channel\":\(channel),\"actuator\":\"\(kind)\",\"segments\":[")
        first = true
      },
      segment: { segment in
        try sink.write((first ? "" : ",") + segmentJSON(segment).rendered)
        first = false
      },
      end: { _ in try sink.write("]}") })
    try sink.write("],\"stats\":" + JSONText.object(try statsMembers(totals)).rendered + "}\n")
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
