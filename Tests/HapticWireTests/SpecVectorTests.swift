import Foundation
import HapticWire
import Testing

/// docs/protocol.md carries a test vector for every message; these tests keep the spec and the
/// code in step. Set RECORD_VECTORS=1 to print the vectors the code produces.
@Suite("Spec test vectors")
struct SpecVectorTests {
  static let specURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/protocol.md")

  /// The frame every vector wraps its message in: session 0x5A, seq 7, ack 3.
  static func frame(_ message: WireMessage) -> WireFrame {
    let flags: WireFrame.Flags = message.kind == .ack ? [.ackValid] : [.reliable, .ackValid]
    return WireFrame(
      flags: flags, session: 0x5A, seq: message.kind == .ack ? 0 : 7, ack: 3, type: message.kind.rawValue,
      payload: message.payload())
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
  }

  /// `name → hex` from the fenced block between the `marker` markers of the spec.
  static func specVectors(_ marker: String = "vectors") throws -> [String: String] {
    let text = try String(contentsOf: specURL, encoding: .utf8)
    guard let begin = text.range(of: "<!-- \(marker):begin -->"), let end = text.range(of: "<!-- \(marker):end -->") else {
      return [:]
    }
    var vectors: [String: String] = [:]
    for line in text[begin.upperBound..<end.lowerBound].split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, !line.hasPrefix("```") else { continue }
      vectors[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
    }
    return vectors
  }

  @Test("Every message has a vector in docs/protocol.md, and the code produces exactly it")
  func vectorsMatch() throws {
    if ProcessInfo.processInfo.environment["RECORD_VECTORS"] != nil {
      for (name, message) in ExampleMessages.all {
        print("\(name) \(Self.hex(Self.frame(message).encoded()))")
      }
    }
    let vectors = try Self.specVectors()
    #expect(vectors.count == ExampleMessages.all.count, "docs/protocol.md lists \(vectors.count) vectors")
    for (name, message) in ExampleMessages.all {
      let expected = try #require(vectors[name], "no vector for \(name) in docs/protocol.md")
      #expect(Self.hex(Self.frame(message).encoded()) == expected, "\(name)")
      // And the vector decodes back to the message.
      let bytes = expected.split(separator: " ").compactMap { UInt8($0, radix: 16) }
      var decoder = FrameDecoder()
      let frames = decoder.feed(bytes)
      #expect(frames.count == 1)
      if let frame = frames.first {
        #expect(try WireMessage.decode(type: frame.type, payload: frame.payload) == message, "\(name) decodes")
      }
    }
  }

  /// The link-control frames of §4.5, as the spec lists them: a NAK, a poll and (v1.1) a hold in
  /// session 0x5A; and a board's reset notice resent at first contact (§4.1), following the
  /// host's session that started at 0xB9.
  static let linkFrames: [(String, WireFrame)] = [
    ("nak", WireFrame(flags: [.ackValid, .nak], session: 0x5A, seq: 0, ack: 3, type: 0, payload: [])),
    ("poll", WireFrame(flags: [.ackValid, .poll], session: 0x5A, seq: 8, ack: 3, type: 0, payload: [])),
    ("hold", WireFrame(flags: [.ackValid, .hold], session: 0x5A, seq: 0, ack: 3, type: 0, payload: [])),
    ("resetNoticeFirstContact", WireFrame(
      flags: [.reliable, .ackValid, .syn], session: 0x03, seq: 0, ack: 0xB9, type: WireMessage.Kind.resetNotice.rawValue,
      payload: WireMessage.resetNotice(bootCount: 3, cause: .external).payload())),
  ]

  @Test("The link vectors of §4.1 and §4.5 (NAK, poll, hold, first-contact reset notice) match what the link sends")
  func linkVectorsMatch() throws {
    let vectors = try Self.specVectors("link-vectors")
    #expect(vectors.count == Self.linkFrames.count)
    for (name, frame) in Self.linkFrames {
      let expected = try #require(vectors[name], "no vector for \(name) in docs/protocol.md")
      #expect(Self.hex(frame.encoded()) == expected, "\(name): \(Self.hex(frame.encoded()))")
    }
    // And a link produces exactly these: a receiver that expects 3 and sees 4 NAKs; a sender
    // whose next number is 8 polls with it.
    var board = ReliableLink(session: 0x5A)
    let syn = WireFrame(flags: [.reliable, .syn], session: 0x11, seq: 3, ack: 0, type: 0x0A, payload: [])
    _ = board.receive([syn], now: 0)  // follows session 0x11 from seq 3, expects 4 next
    let ahead = WireFrame(flags: [.reliable], session: 0x11, seq: 5, ack: 0, type: 0x0A, payload: [])
    var decoder = FrameDecoder()
    let nak = decoder.feed(board.receive([ahead], now: 0.001).bytes)
    #expect(nak.count == 1 && nak.first?.flags == [.ackValid, .nak] && nak.first?.ack == 4)
    // A board that booted unheard resends its reset notice at the host's first contact,
    // following the host's session: the vector's frame exactly.
    var booted = ReliableLink(session: 0x03)
    _ = booted.send(.resetNotice(bootCount: 3, cause: .external), now: 0)
    let identify = WireFrame(flags: [.reliable, .syn], session: 0x77, seq: 0xB9, ack: 0, type: 0x01, payload: [])
    let resent = decoder.feed(booted.receive([identify], now: 1).bytes).filter { $0.type == WireMessage.Kind.resetNotice.rawValue }
    #expect(resent.first.map { Self.hex($0.encoded()) } == vectors["resetNoticeFirstContact"], "\(resent)")
  }

  @Test("The CRC check value and COBS examples in the spec hold")
  func specExamples() throws {
    let text = try String(contentsOf: Self.specURL, encoding: .utf8)
    #expect(text.contains("0x6F91"))
    #expect(CRC16.checksum(Array("123456789".utf8)) == 0x6F91)
  }
}
