import HapticRenderer
import HapticWire
import Testing

@Suite("Segment framing")
struct SegmentFramerTests {
  @Test("Segments pack into full frames that decode back to the same segments and times")
  func roundTrip() throws {
    var segments: [Segment] = []
    var frame = 0
    for n in 0..<700 {
      let length = 1 + (n * 37) % 90
      segments.append(Segment(
        startFrame: frame, frames: length, startLevel: (n * 13) % 255 - 127, endLevel: (n * 29) % 255 - 127,
        startFrequency: 80 + n % 150, endFrequency: 80 + (n * 3) % 150))
      frame += length
    }
    var framer = SegmentFramer(channel: 2, levelBytes: 1, framePeriod: 0.001)
    var stream: [UInt8] = []
    for segment in segments {
      if let bytes = framer.add(segment) { stream += bytes }
    }
    if let bytes = framer.finish() { stream += bytes }
    #expect(framer.wireBytes == stream.count)
    var decoder = FrameDecoder()
    let frames = decoder.feed(stream)
    #expect(frames.count == framer.frames)
    #expect(frames.allSatisfy { $0.payload.count <= WireFrame.maxPayload })
    var decoded: [Segment] = []
    for frame in frames {
      guard case .queueSegments(let batch) = try WireMessage.decode(type: frame.type, payload: frame.payload) else {
        Issue.record("not a queue message")
        continue
      }
      #expect(batch.channel == 2)
      var start = Int(batch.startTime) / 1000
      #expect(start == (decoded.last.map { $0.startFrame + $0.frames } ?? 0), "batches are contiguous in time")
      for wire in batch.segments {
        decoded.append(Segment(
          startFrame: start, frames: wire.frames, startLevel: wire.startLevel, endLevel: wire.endLevel,
          startFrequency: wire.startFrequency, endFrequency: wire.endFrequency))
        start += wire.frames
      }
    }
    #expect(decoded == segments)
  }
}
