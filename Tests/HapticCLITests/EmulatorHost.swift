import Foundation
import HapticTransport
import HapticWire

/// A host driving the emulated board by hand over its pty: the reliable link and frame decoder
/// of HapticWire, a clock estimate from `clock query`, and full control over what goes out (so a
/// test can fall silent).
final class EmulatorHost {
  /// Seconds per byte on the wire at 115 200 baud, 8N1.
  static let secondsPerByte = 10.0 / 115_200

  let transport: any ByteTransport
  /// Timers count from when a frame has left the wire at 115 200 baud (§4.3).
  private var link = ReliableLink.host(
    configuration: .init(bytePeriod: ReliableLink.Configuration.bytePeriod(baud: 115_200)))
  private var decoder = FrameDecoder()
  /// Every message received, with the host time it was decoded.
  private(set) var received: [(time: Double, message: WireMessage)] = []
  /// Every frame that passed the CRC, link control included (acks, polls, NAKs, holds), with
  /// the host time it was decoded.
  private(set) var frames: [(time: Double, frame: WireFrame)] = []
  /// When false, acknowledgements and retransmissions are not written (silence).
  var answering = true
  private var nextQueryID: UInt16 = 0x100

  convenience init(path: String) throws {
    try self.init(transport: Transports.open(path: path, baud: 115_200))
  }

  /// A host on `transport` (a pty, or a loopback to an in-process simulator).
  init(transport: any ByteTransport) throws {
    self.transport = transport
    // A delimiter first flushes whatever partial frame the board may hold (§2).
    try transport.write([0])
  }

  /// Sends a reliable frame of any type (unknown types included).
  func sendReliable(type: UInt8, payload: [UInt8]) throws {
    try transport.write(link.send(type: type, payload: payload, now: emulatorMonotonicSeconds()))
  }

  /// Writes `frame` as it is (unreliable frames, other versions).
  func sendRaw(_ frame: WireFrame) throws {
    try transport.write(frame.encoded())
  }

  /// The link's session (for hand-made frames).
  var session: UInt8 { link.session }
  /// The number this host's session starts at (its SYN's `seq`).
  var firstSequence: UInt8 { link.firstSequence }

  deinit { transport.close() }

  /// The host link's counters.
  var linkStatistics: ReliableLink.Statistics { link.statistics }

  /// The `error` messages the board sent.
  var errorsReceived: [ProtocolError] {
    received.compactMap { if case .error(let error) = $0.message { return error } else { return nil } }
  }

  /// Sends `message` reliably; returns the bytes written and the host time around the write.
  @discardableResult
  func send(_ message: WireMessage) throws -> (bytes: Int, before: Double, after: Double) {
    let before = emulatorMonotonicSeconds()
    let bytes = link.send(message, now: before)
    try transport.write(bytes)
    return (bytes.count, before, emulatorMonotonicSeconds())
  }

  /// Reads for up to `timeout` seconds, until a message matching `match` arrives (returned
  /// with its arrival time), acknowledging and retransmitting while `answering`.
  func wait(timeout: Double, for match: (WireMessage) -> Bool) throws -> (time: Double, message: WireMessage)? {
    let deadline = emulatorMonotonicSeconds() + timeout
    while true {
      let left = deadline - emulatorMonotonicSeconds()
      if left <= 0 { return nil }
      let bytes = try transport.read(timeout: min(left, 0.005))
      let now = emulatorMonotonicSeconds()
      let decoded = decoder.feed(bytes)
      frames += decoded.map { (now, $0) }
      let output = link.receive(decoded, now: now)
      if answering && !output.bytes.isEmpty { try transport.write(output.bytes) }
      var found: (Double, WireMessage)?
      for frame in output.frames {
        guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
        received.append((now, message))
        if found == nil && match(message) { found = (now, message) }
      }
      if answering {
        let retransmit = link.poll(now: emulatorMonotonicSeconds())
        if !retransmit.bytes.isEmpty { try transport.write(retransmit.bytes) }
      }
      if let found { return found }
    }
  }

  /// Reads and drops whatever arrives for `seconds`, without decoding it (what the board sent
  /// before this host listened).
  func discardInput(for seconds: Double) throws {
    let deadline = emulatorMonotonicSeconds() + seconds
    while emulatorMonotonicSeconds() < deadline {
      _ = try transport.read(timeout: min(0.005, max(deadline - emulatorMonotonicSeconds(), 0)))
    }
  }

  /// `identify` → `capabilities`.
  func identify(timeout: Double = 5) throws -> BoardCapabilities? {
    try send(.identify)
    let reply = try wait(timeout: timeout) {
      if case .capabilities = $0 { return true } else { return false }
    }
    if case .capabilities(let capabilities)? = reply?.message { return capabilities }
    return nil
  }

  /// `status request` → `status`.
  func status(timeout: Double = 5) throws -> BoardStatus? {
    try send(.statusRequest)
    let reply = try wait(timeout: timeout) {
      if case .status = $0 { return true } else { return false }
    }
    if case .status(let status)? = reply?.message { return status }
    return nil
  }

  /// A board-clock estimate from one `clock query`: the board read its clock after the query
  /// had arrived and before its answer started back, so between `sent + query wire time` and
  /// `received − answer wire time`; the middle of that interval is the estimate.
  struct ClockSample {
    let hostSent: Double
    let hostReceived: Double
    let boardTicks: UInt64
    /// Host times between which the board read its clock, and the estimate (their middle).
    let earliestRead: Double
    let latestRead: Double
    var hostAtRead: Double { (earliestRead + latestRead) / 2 }
    var roundTrip: Double { hostReceived - hostSent }
  }

  /// Sends `count` clock queries one after another; returns the fastest round trip's sample.
  func clockSample(count: Int = 6, timeout: Double = 2) throws -> ClockSample? {
    var best: ClockSample?
    for _ in 0..<count {
      let id = nextQueryID
      nextQueryID &+= 1
      let sent = try send(.clockQuery(id: id))
      let reply = try wait(timeout: timeout) {
        if case .clock(let replyID, _) = $0 { return replyID == id } else { return false }
      }
      guard let reply, case .clock(_, let ticks) = reply.message else { continue }
      // Payload 10 bytes: a 19-byte raw frame, ~21 bytes on the wire with COBS and delimiter.
      var earliest = sent.after + Double(sent.bytes) * Self.secondsPerByte
      var latest = reply.time - 21 * Self.secondsPerByte
      if earliest > latest { (earliest, latest) = (sent.before, reply.time) }
      let sample = ClockSample(
        hostSent: sent.before, hostReceived: reply.time, boardTicks: ticks, earliestRead: earliest, latestRead: latest)
      if best == nil || sample.roundTrip < best!.roundTrip { best = sample }
    }
    return best
  }
}

extension EmulatorHost {
  /// Queues a clock marker: `frames` frames at `level`, then level 0, starting `lead` seconds
  /// ahead on the board clock; returns its start time (board ticks). Its RTP write in the trace
  /// ties simulated time to the board clock (board ticks ≈ 2 × simulated µs + a boot offset):
  /// two markers show whether the board clock kept pace with the simulation in between.
  func queueMarker(level: Int, frames: Int = 20, lead: Double = 0.060) throws -> UInt64 {
    guard let clock = try clockSample(count: 3) else { throw EmulatorError("marker: no clock answer") }
    let ticksPerSecond = 2_000_000.0
    let now = Double(clock.boardTicks) + (emulatorMonotonicSeconds() - clock.hostAtRead) * ticksPerSecond
    // On the 1 ms frame grid, like the engine's batches.
    let start = (UInt64(now + lead * ticksPerSecond) / 2000) * 2000
    let batch = SegmentBatch(
      channel: 0, startTime: UInt32(truncatingIfNeeded: start), levelBytes: 2,
      segments: [
        .init(frames: frames, startLevel: level, endLevel: level, startFrequency: 0, endFrequency: 0),
        .init(frames: 1, startLevel: 0, endLevel: 0, startFrequency: 0, endFrequency: 0),
      ])
    try send(.queueSegments(batch))
    return start
  }

  /// Connects to the board on `path`, plays a marker and waits until it played; returns its
  /// start time (board ticks). The port is closed again on return.
  static func marker(path: String, level: Int) throws -> UInt64 {
    let host = try EmulatorHost(path: path)
    defer { host.transport.close() }
    guard try host.identify() != nil else {
      throw EmulatorError(
        "marker: no capabilities from \(path); host link \(host.linkStatistics), received \(host.received.map(\.message))")
    }
    let start = try host.queueMarker(level: level)
    _ = try host.wait(timeout: 0.12) { _ in false }
    let errors = host.received.compactMap { if case .error(let error) = $0.message { return error } else { return nil } }
    guard errors.isEmpty else { throw EmulatorError("marker: the board answered \(errors)") }
    return start
  }
}
