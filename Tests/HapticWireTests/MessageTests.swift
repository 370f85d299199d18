import HapticWire
import Testing

/// One example of every message, shared by the round-trip tests and the spec's test vectors.
enum ExampleMessages {
  static let capabilities = BoardCapabilities(
    firmwareName: "hapticctl-uno", firmwareVersion: "1.0.0", boardID: "uno-drv2605l", bootCount: 3,
    clockFrequency: 1_000_000, framePeriodMicroseconds: 1000, queueDepth: 32, watchdogMilliseconds: 100,
    features: [.braking, .overdrive, .calibration, .romEffects],
    channels: [
      .init(kind: .lra, resonantFrequency: 175, qualityFactor: nil, frequencyRange: nil, amplitudeBits: 8, calibration: .calibrated)
    ])

  static let batch = SegmentBatch(
    channel: 0, startTime: 123_456, levelBytes: 1,
    segments: [
      .init(frames: 9, startLevel: 127, endLevel: 127, startFrequency: 166, endFrequency: 166),
      .init(frames: 5, startLevel: -127, endLevel: -127, startFrequency: 166, endFrequency: 166),
      .init(frames: 200, startLevel: 20, endLevel: 0, startFrequency: 166, endFrequency: 180),
    ])

  /// (name, message) for every message kind.
  static let all: [(String, WireMessage)] = [
    ("ack", .ack),
    ("identify", .identify),
    ("capabilities", .capabilities(capabilities)),
    ("clockQuery", .clockQuery(id: 258)),
    ("clock", .clock(id: 258, boardTime: 0x0102_0304_0506)),
    ("queueSegments", .queueSegments(batch)),
    ("replaceSegments", .replaceSegments(SegmentBatch(channel: 0, startTime: 123_600, levelBytes: 1, segments: [
      .init(frames: 50, startLevel: 60, endLevel: 60, startFrequency: 200, endFrequency: 200)
    ]))),
    ("stop", .stop(channels: 0xFF)),
    ("statusRequest", .statusRequest),
    ("status", .status(BoardStatus(
      boardTime: 123_700, watchdog: .armed, faults: [], badFrames: 2,
      channels: [.init(queueFill: 4, underruns: 0, lateSegments: 1, level: 60)]))),
    // v1.1: a status of a board with two channels (the Uno + H-bridge), the second braking.
    ("statusTwoChannels", .status(BoardStatus(
      boardTime: 123_700, watchdog: .armed, faults: [], badFrames: 0,
      channels: [
        .init(queueFill: 4, underruns: 1, lateSegments: 0, level: 100),
        .init(queueFill: 2, underruns: 0, lateSegments: 3, level: -60),
      ]))),
    ("heartbeat", .heartbeat),
    ("resetNotice", .resetNotice(bootCount: 3, cause: .powerOn)),
    ("calibrate", .calibrate(channel: 0)),
    ("calibrationResult", .calibrationResult(CalibrationResult(
      channel: 0, succeeded: true, resonantFrequency: 174.5, compensation: 12, backEMF: 140))),
    ("playROMEffect", .playROMEffect(channel: 0, library: 6, effect: 1, startTime: 124_000)),
    ("error", .error(ProtocolError(code: .unknownMessage, messageType: 0x42, detail: 0))),
    ("setWatchdog", .setWatchdog(milliseconds: 250)),
    ("identityRequest", .identityRequest(assign: 0x1A2B_3C4D)),
    ("identity", .identity(serial: 0x1A2B_3C4D)),
  ]
}

@Suite("Messages")
struct MessageTests {
  @Test("Every message kind has an example")
  func coverage() {
    #expect(Set(ExampleMessages.all.map(\.1.kind)) == Set(WireMessage.Kind.allCases))
  }

  @Test("Every message round-trips through payload and frame", arguments: ExampleMessages.all.map(\.0))
  func roundTrip(_ name: String) throws {
    let message = try #require(ExampleMessages.all.first { $0.0 == name }?.1)
    let decoded = try WireMessage.decode(type: message.kind.rawValue, payload: message.payload())
    #expect(decoded == message)
    var decoder = FrameDecoder()
    let frame = WireFrame(flags: [.reliable], session: 1, seq: 2, ack: 3, type: message.kind.rawValue, payload: message.payload())
    let frames = decoder.feed(frame.encoded())
    #expect(frames == [frame])
    #expect(message.payload().count <= WireFrame.maxPayload)
  }

  @Test("Truncated, padded and unknown payloads are refused with a reason")
  func malformed() {
    for (name, message) in ExampleMessages.all where !message.payload().isEmpty {
      let payload = message.payload()
      #expect(throws: WireError.self, "\(name) truncated") {
        try WireMessage.decode(type: message.kind.rawValue, payload: Array(payload.dropLast()))
      }
      #expect(throws: WireError.self, "\(name) padded") {
        try WireMessage.decode(type: message.kind.rawValue, payload: payload + [0])
      }
    }
    do {
      _ = try WireMessage.decode(type: 0x42, payload: [])
      Issue.record("unknown type accepted")
    } catch {
      #expect(error.code == .unknownMessage)
    }
  }

  @Test("Segment batches use 2-byte levels on boards above 8 bits")
  func wideLevels() throws {
    let batch = SegmentBatch(channel: 1, startTime: 7, levelBytes: 2, segments: [
      .init(frames: 70_000, startLevel: -2000, endLevel: 2047, startFrequency: 0, endFrequency: 0)
    ])
    let decoded = try WireMessage.decode(type: WireMessage.Kind.queueSegments.rawValue, payload: WireMessage.queueSegments(batch).payload())
    #expect(decoded == .queueSegments(batch))
  }

  @Test("A duplicated trailing zero byte cannot sneak a byte into the payload")
  func duplicatedTrailingZero() {
    // Find a frame whose CRC ends in 0x00: duplicating that byte keeps a bare CRC-16 valid.
    for n in 0..<5000 {
      let frame = WireFrame(flags: [.reliable], seq: 0, ack: 0, type: 5, payload: [UInt8(n & 0xFF), UInt8(n >> 8)])
      let raw = frame.rawBytes
      guard raw.last == 0 else { continue }
      var decoder = FrameDecoder()
      let tampered = COBS.encode(raw + [0]) + [0]
      #expect(decoder.feed(tampered).isEmpty)
      return
    }
    Issue.record("no frame with a trailing zero CRC byte found")
  }
}
