public import HapticWire

/// What a capability probe found (docs/protocol.md §6.4).
public struct ProbeResult: Sendable {
  /// The port probed.
  public var port: String
  /// The board's answer to `identify`, if any.
  public var capabilities: BoardCapabilities?
  /// True when haptics can be played on this board.
  public var supportsHaptics: Bool
  /// Why haptics are not supported (nil when they are).
  public var reason: String?
  /// The board's protocol version, if known (also from an `unsupportedVersion` error).
  public var protocolVersion: UInt8?
  /// Seconds from sending `identify` to the capabilities (one round trip plus processing on a
  /// clean line).
  public var answerTime: Double?
  /// The fastest clock-query round trip, in seconds.
  public var roundTrip: Double?
  /// Board time minus host time, in seconds, at the end of the probe.
  public var clockOffset: Double?
  /// Board clock drift against the host, in parts per million.
  public var driftPPM: Double?
  /// How uncertain ``driftPPM`` is (``HapticWire/ClockSync/driftUncertaintyPPM``), ppm.
  public var driftUncertaintyPPM: Double?
  /// Frames the probe sent again: to a board that did not answer yet (one still booting after
  /// an auto-reset) and on the link once it did.
  public var retransmissions: Int
  /// The line's rate the link's timers count with: the one the board answered at, or on a
  /// pseudo-terminal its board file's (``LineRates``); nil when the probe was not told rates.
  public var baud: Int?
  /// Which physical board answered: its port's USB serial number, and the serial a board with
  /// the *identity* feature keeps (docs/protocol.md §6.11).
  public var identity = BoardIdentity()
}

/// Runs the capability probe: identify → capabilities, then clock queries for round-trip time,
/// offset and drift. Synchronous, on the calling thread: at most `timeout` for the answer, then
/// at most 1.5 s of clock queries.
public struct Prober: Sendable {
  /// Seconds to wait for the board's answer to `identify`.
  public var timeout: Double
  /// Clock round trips to measure after identifying.
  public var clockSamples: Int
  /// Seconds between clock queries: 24 samples span about a second, enough for a drift estimate.
  static let querySpacing = 0.040
  /// A serial to give a board with the *identity* feature that keeps none yet (not 0; a board
  /// that has one keeps its own). Nil: only ask (docs/protocol.md §6.11).
  public var assignSerial: UInt32?

  /// Creates a prober.
  public init(timeout: Double = 2, clockSamples: Int = 24, assignSerial: UInt32? = nil) {
    self.timeout = timeout
    self.clockSamples = clockSamples
    self.assignSerial = assignSerial == 0 ? nil : assignSerial
  }

  /// Probes the board on `transport`.
  ///
  /// - Throws: ``TransportError`` when the port fails (disconnect, I/O error); a board that does
  ///   not answer is a result with `supportsHaptics == false`, not an error.
  public func probe(_ transport: any ByteTransport) throws(TransportError) -> ProbeResult {
    let start = MonotonicTime.seconds()
    var link = ReliableLink.host()
    return try probe(transport, link: &link) { MonotonicTime.seconds() - start }
  }

  /// Probes the board on `transport` through `link`, whose session a ``BoardConnection`` can
  /// then continue (`BoardConnection(continuing:)`): one session for the port, so no ack the
  /// board meant for the probe can be taken for a later session's (docs/protocol.md §4.5).
  /// `now` is the link's clock, seconds.
  public func probe(_ transport: any ByteTransport, link: inout ReliableLink, now: @escaping () -> Double)
    throws(TransportError) -> ProbeResult
  {
    var decoder = FrameDecoder()
    var result = ProbeResult(port: transport.name, supportsHaptics: false, retransmissions: 0)
    var sync: ClockSync?
    var queryTimes: [UInt16: Double] = [:]
    // Random first id: a board resends unacknowledged answers to the next session, and a stale
    // answer must not pass for a fresh one.
    var nextQuery = UInt16.random(in: 1...UInt16.max)
    var samples = 0
    var clockDeadline = Double.infinity
    /// When the next clock query may go out: spaced so the samples span over half a second,
    /// enough for a drift estimate.
    var nextQueryTime = Double.infinity
    /// An `identity request` sent and not yet answered (the probe waits for it, up to the
    /// clock deadline).
    var identityPending = false

    try transport.write([0])
    try transport.write(link.send(.identify, now: now()))
    while true {
      let t = now()
      if result.capabilities == nil && t >= timeout { break }
      if result.capabilities != nil && ((samples >= clockSamples && !identityPending) || t >= clockDeadline) { break }
      let bytes = try transport.read(timeout: 0.002)
      let output = link.receive(decoder.feed(bytes), now: now())
      try transport.write(output.bytes)
      for event in output.events {
        if case .versionMismatch(let version) = event {
          result.protocolVersion = version
          result.reason = "unsupported protocol version \(version) (hapticctl speaks \(WireFrame.protocolVersion))"
          result.retransmissions = link.statistics.resends
          return result
        }
      }
      for frame in output.frames {
        guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
        switch message {
        case .capabilities(let capabilities):
          guard result.capabilities == nil else { continue }
          result.capabilities = capabilities
          result.answerTime = now()
          result.protocolVersion = capabilities.protocolVersion
          sync = ClockSync(clockFrequency: Double(max(capabilities.clockFrequency, 1)))
          clockDeadline = now() + 1.5
          nextQueryTime = now()
          if capabilities.features.contains(.identity) {
            identityPending = true
            try transport.write(link.send(.identityRequest(assign: assignSerial), now: now()))
          }
        case .identity(let serial):
          guard identityPending else { continue }
          identityPending = false
          result.identity.boardSerial = serial
        case .clock(let id, let ticks):
          guard let sent = queryTimes.removeValue(forKey: id) else { continue }
          sync?.add(hostSend: sent, hostReceive: now(), boardTicks: ticks)
          samples += 1
          nextQuery &+= 1
          nextQueryTime = sent + Self.querySpacing
        case .error(let error) where error.code == .unsupportedVersion:
          result.protocolVersion = UInt8(truncatingIfNeeded: error.detail)
          result.reason = "unsupported protocol version \(error.detail) (hapticctl speaks \(WireFrame.protocolVersion))"
          result.retransmissions = link.statistics.resends
          return result
        default:
          continue
        }
      }
      if clockSamples > 0 && now() >= nextQueryTime && queryTimes.isEmpty {
        nextQueryTime = .infinity
        queryTimes[nextQuery] = now()
        try transport.write(link.send(.clockQuery(id: nextQuery), now: now()))
      }
      try transport.write(link.poll(now: now()).bytes)
    }
    result.retransmissions = link.statistics.resends
    result.identity.usbSerial = PortList.usbSerial(of: transport.name)
    guard let capabilities = result.capabilities else {
      result.reason = "no answer within \(Self.seconds(timeout)) s (is the board running hapticctl firmware at this baud rate?)"
      return result
    }
    if let sync, sync.isSynchronized {
      result.roundTrip = sync.minimumRoundTrip
      result.clockOffset = sync.offset(atHost: now())
      result.driftPPM = sync.driftPPM
      result.driftUncertaintyPPM = sync.driftUncertaintyPPM
    }
    if capabilities.protocolVersion != WireFrame.protocolVersion {
      result.reason = "unsupported protocol version \(capabilities.protocolVersion) (hapticctl speaks \(WireFrame.protocolVersion))"
    } else if !capabilities.channels.contains(where: { $0.kind != .none }) {
      result.reason = "no actuator reported (the board has no LRA or ERM connected)"
    } else {
      result.supportsHaptics = true
    }
    return result
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
