import HapticCore
import HapticTestSupport
import HapticWire
import PropertyBased
import Testing

@Suite("Framing: CRC, COBS, frames, streaming decoder")
struct FramingTests {
  @Test("CRC-16/MCRF4XX check value")
  func crcCheckValue() {
    #expect(CRC16.checksum(Array("123456789".utf8)) == 0x6F91)
    #expect(CRC16.checksum([UInt8]()) == 0xFFFF)
  }

  @Test("COBS known vectors")
  func cobsVectors() {
    #expect(COBS.encode([0x00]) == [0x01, 0x01])
    #expect(COBS.encode([0x11, 0x22, 0x00, 0x33]) == [0x03, 0x11, 0x22, 0x02, 0x33])
    #expect(COBS.encode([0x11, 0x00, 0x00, 0x00]) == [0x02, 0x11, 0x01, 0x01, 0x01])
    let run = [UInt8](repeating: 0x42, count: 254)
    #expect(COBS.encode(run) == [0xFF] + run + [0x01])
    #expect(COBS.decode([0x03, 0x11, 0x22, 0x02, 0x33]) == [0x11, 0x22, 0x00, 0x33])
    #expect(COBS.decode([0x05, 0x11]) == nil, "truncated")
    #expect(COBS.decode([0x02, 0x00]) == nil, "zero inside")
  }

  @Test("COBS round-trips any bytes and never emits 0x00")
  func cobsProperty() async {
    await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...600)) { bytes in
      let encoded = COBS.encode(bytes)
      #expect(!encoded.contains(0))
      #expect(encoded.count <= bytes.count + bytes.count / 254 + 1)
      #expect(COBS.decode(encoded) == bytes)
    }
  }

  @Test("Random payloads round-trip through frames")
  func frameRoundTrip() async {
    await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...WireFrame.maxPayload), Gen.uint8(), Gen.uint8()) { payload, seq, type in
      let frame = WireFrame(flags: [.reliable, .ackValid], seq: seq, ack: seq &+ 3, type: type, payload: payload)
      var decoder = FrameDecoder()
      #expect(decoder.feed(frame.encoded()) == [frame])
      #expect(frame.encoded().count <= WireFrame.maxEncodedSize)
    }
  }

  @Test("The decoder gives identical results byte by byte, all at once and in random chunks")
  func chunkingInvariance() async {
    await propertyCheck(count: 100, input: Gen.uint64()) { seed in
      var rng = SplitMix(seed: seed)
      var stream: [UInt8] = []
      var frames: [WireFrame] = []
      for index in 0..<(1 + Int(rng.next() % 12)) {
        let payload = (0..<Int(rng.next() % 60)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let frame = WireFrame(flags: [.reliable], seq: UInt8(index), ack: 0, type: UInt8(rng.next() % 17), payload: payload)
        frames.append(frame)
        if rng.next() % 3 == 0 {
          // Garbage between frames, ending in a delimiter, must be skipped.
          stream += (0..<Int(rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next() | 1) } + [0]
        }
        stream += frame.encoded()
      }
      var whole = FrameDecoder()
      let all = whole.feed(stream)
      var single = FrameDecoder()
      let byByte = stream.flatMap { single.feed([$0]) }
      var chunked = FrameDecoder()
      var pieces: [WireFrame] = []
      var index = 0
      while index < stream.count {
        let size = 1 + Int(rng.next() % 37)
        pieces += chunked.feed(stream[index..<min(index + size, stream.count)])
        index += size
      }
      #expect(all == frames, "seed \(seed)")
      #expect(byByte == frames)
      #expect(pieces == frames)
    }
  }

  @Test("Single and double bit flips are never accepted")
  func bitFlips() async {
    await propertyCheck(count: 12, input: Gen.uint8().array(of: 0...40)) { payload in
      let frame = WireFrame(flags: [.reliable], seq: 7, ack: 9, type: 5, payload: payload)
      let encoded = frame.encoded()
      let bits = (encoded.count - 1) * 8  // not the delimiter
      for first in 0..<bits {
        var flipped = encoded
        flipped[first / 8] ^= 1 << UInt8(first % 8)
        var decoder = FrameDecoder()
        let out = decoder.feed(flipped + [0])
        #expect(!out.contains { $0 != frame }, "single flip \(first) accepted")
        #expect(out.count <= 1)
      }
      // Double flips: every pair within the first 8 bytes, a stride over the rest.
      let limit = min(bits, 8 * 8)
      for first in 0..<limit {
        for second in stride(from: first + 1, to: bits, by: first < 16 ? 1 : 5) {
          var flipped = encoded
          flipped[first / 8] ^= 1 << UInt8(first % 8)
          flipped[second / 8] ^= 1 << UInt8(second % 8)
          var decoder = FrameDecoder()
          let out = decoder.feed(flipped + [0])
          #expect(!out.contains { $0 != frame }, "double flip \(first),\(second) accepted")
        }
      }
    }
  }

  @Test("Oversized and truncated input is rejected and counted, and the decoder recovers")
  func recovery() {
    var decoder = FrameDecoder()
    let good = WireFrame(flags: [], seq: 0, ack: 0, type: 1, payload: []).encoded()
    let noise = [UInt8](repeating: 0x55, count: 2000) + [0]
    let frames = decoder.feed(noise + good + [0x03, 0x11] + [0] + good)
    #expect(frames.count == 2)
    #expect(decoder.counters.rejected == 2)
    #expect(decoder.counters.discardedBytes >= 2000)
  }
}
