/// The reliable link layer of the wire protocol (docs/protocol.md §4): sequence numbers,
/// cumulative acknowledgements, a send window with go-back-N retransmission, fast recovery (a
/// receiver that sees a gap answers with a NAK; a sender with frames unacknowledged polls),
/// duplicate suppression, and session start/restart detection (SYN).
///
/// A pure state machine: it never reads clocks or does I/O. Callers pass the current time in
/// seconds (any monotonic base) and write the bytes it returns. Both ends of a link, host and
/// board, run the same logic. Timers count from when a frame has left the wire: with a
/// ``Configuration/bytePeriod`` the link knows how long what it wrote takes to transmit.
public struct ReliableLink: Sendable {
  struct InFlight: Sendable {
    let seq: UInt8
    var frame: WireFrame
    /// When it was handed to the link (it may wait for window space).
    let queued: Double
    /// When its first transmission left the wire.
    let firstSent: Double
    /// When its latest transmission left the wire.
    var lastSent: Double
    var retransmitted: Bool
    /// Its acknowledgement may give a round-trip sample (Karn's rule, §4.3): sent once, and no
    /// go-back-N (which may hold it back behind resends) went out while it was in flight.
    var sampleable = true
    /// When the latest poll left while it was on the wire: its sample runs from there (a poll
    /// is answered at once; a lost ack's wait for the poll is no round trip).
    var polledAt: Double?
    /// Sent again while the peer had never been heard (nobody listened yet): its wait was the
    /// peer's start, not the link's delivery.
    var resentUnanswered = false
    /// Its latest transmission is outstanding (false: a go-back-N left it to resend).
    var onWire: Bool
  }

  /// The most reliable frames a sender may leave unacknowledged (§4.3): a retransmitted SYN
  /// arrives before the receiver has taken more than this many frames of its session.
  public static let protocolWindow = 8

  /// Window, timer and wire settings (``setBytePeriod(_:)`` changes the wire's).
  public private(set) var configuration: Configuration
  /// This side's session id (sent in every frame).
  public internal(set) var session: UInt8
  /// The number this side's current session starts at (its SYN's `seq`).
  public internal(set) var firstSequence: UInt8
  /// Every session this side starts after its first draws a new id and first number (a host);
  /// otherwise (a board) a new session starts 128 after the previous one's first number. Either
  /// way a peer that followed the previous session never takes the new `SYN` for a
  /// retransmission of the old one (§4.1, v1.1).
  var drawsSessions = false
  /// The peer's session id, once it started one.
  var peerSession: UInt8?
  /// The `seq` of the SYN that started the peer's session: only a SYN with this number, within
  /// a window of it, is a retransmission (§4.1).
  var peerFirstSequence: UInt8 = 0
  var timer: RetransmitTimer
  var nextSeq: UInt8 = 0
  var sessionStarted = false
  /// The peer acknowledged a frame of this side's current session (it follows it).
  var sessionAcknowledged = false
  var inFlight: [InFlight] = []
  var waiting: [(type: UInt8, payload: [UInt8], queued: Double)] = []
  var expected: UInt8?
  var duplicateAcks = 0
  var consecutiveTimeouts = 0
  /// Fast recoveries since the last progress (an acknowledgement of new frames); a timeout does
  /// not reset it, so without progress only the backed-off RTO resends.
  var consecutiveFastRecoveries = 0
  /// The peer holds the frame it expects (§4.5, `HOLD`): no polls, no resends until it says
  /// it takes frames again (a plain ack) or the RTO runs out.
  var peerHolding = false
  /// Frames this side lets be on the wire at once (1…window): halved by a loss, one more for
  /// every acknowledgement of new frames, so a lossy line resends a few frames per round, not
  /// the whole window.
  var congestionWindow: Int
  /// When the wire is free of what this side wrote (with a byte period; 0 without one): a
  /// timestamp taken when nothing is unacknowledged and this has passed has no bytes of this
  /// side queued ahead of it (clock queries wait for that).
  public internal(set) var wireFreeAt = 0.0
  /// When the last poll left, and how many went out since the last progress (an acknowledgement
  /// of new frames) or go-back-N.
  var lastPoll: Double?
  var pollsUnanswered = 0
  /// Polls whose answers (pure acks, like any other) have not come back: an answer repeating
  /// the last acknowledgement is not a duplicate ack (§4.5).
  var pollAnswersPending = 0
  /// A valid frame of the peer's current session arrived (someone is there to answer polls).
  var peerHeard = false
  /// The go-back-N under way began before the peer was ever heard: its resends count as
  /// ``Statistics/unansweredResends``, not as retransmissions.
  var resendingUnanswered = false
  /// Polls sent since this side's current session started: a "NAK alone" answers a poll, and
  /// only one that can answer a poll of this session restarts it (§4.5); those arriving before
  /// this session's first poll answer polls of the previous session (the line keeps order).
  var pollsThisSession = 0
  /// Counters so far.
  public internal(set) var statistics = Statistics()
  /// How long acknowledgements took lately (from a message being handed to the link: waiting
  /// for window space, transmission and recoveries included).
  public internal(set) var deliveryDelay = DecayingMaximum(halfLife: 10)

  /// Creates a link in its initial state (the first frame it sends starts a session).
  ///
  /// - Parameters:
  ///   - session: this side's session id; it must differ from the previous run's (a board uses
  ///     its boot counter, a host a random byte: ``host(configuration:)``).
  ///   - firstSequence: the `seq` its sessions start at (a board 0, a host a random number).
  ///   - configuration: window, timer and wire settings.
  public init(session: UInt8 = 0, firstSequence: UInt8 = 0, configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.session = session
    self.firstSequence = firstSequence
    nextSeq = firstSequence
    timer = configuration.timer
    congestionWindow = configuration.window
  }

  /// The current retransmission timeout.
  public var retransmitTimeout: Double { timer.timeout }

  /// The smoothed round-trip time, once measured.
  public var smoothedRTT: Double? { timer.smoothedRTT }

  /// Reliable frames sent and not yet acknowledged, plus those waiting for window space.
  public var unacknowledged: Int { inFlight.count + waiting.count }

  /// Queues a reliable message; returns the bytes to write now (empty when the window is full:
  /// the message goes out as acknowledgements free the window).
  /// A `replace` first withdraws the segment batches still waiting that it makes moot
  /// (``withdrawSuperseded(by:)``).
  public mutating func send(_ message: WireMessage, now: Double) -> [UInt8] {
    withdrawSuperseded(by: message)
    return send(type: message.kind.rawValue, payload: message.payload(), now: now)
  }

  /// Queues a reliable frame of any type (for tests of unknown types).
  public mutating func send(type: UInt8, payload: [UInt8], now: Double) -> [UInt8] {
    waiting.append((type, payload, now))
    return pump(now: now)
  }

  /// An unreliable frame (no sequence number, never retransmitted), e.g. an `error` reply to a
  /// frame of the wrong version.
  public mutating func unreliable(_ message: WireMessage, version: UInt8 = WireFrame.protocolVersion, now: Double = 0)
    -> [UInt8]
  {
    var flags: WireFrame.Flags = []
    if expected != nil { flags.insert(.ackValid) }
    let bytes = WireFrame(
      version: version, flags: flags, session: session, seq: 0, ack: expected ?? 0, type: message.kind.rawValue,
      payload: message.payload()
    ).encoded()
    _ = departure(of: bytes.count, now: now)
    return bytes
  }

  /// Frames whose latest transmission is outstanding.
  var framesOnWire: Int { inFlight.reduce(0) { $0 + ($1.onWire ? 1 : 0) } }

  /// The most bytes of frames on the wire, not yet acknowledged.
  var bytesOnWire: Int {
    inFlight.reduce(0) { $0 + ($1.onWire ? Self.sizeBound($1.frame.payload.count) : 0) }
  }

  /// Counts a frame sent again: a retransmission, or a resend nobody listened for yet.
  mutating func countResend() {
    if resendingUnanswered {
      statistics.unansweredResends += 1
    } else {
      statistics.retransmissions += 1
    }
  }

  /// Transmits what the congestion window allows: first frames a go-back-N left to resend (in
  /// order), then new ones while the send window has room.
  mutating func pump(now: Double) -> [UInt8] {
    var bytes: [UInt8] = []
    var onWire = framesOnWire
    var bytesOnWire = self.bytesOnWire
    /// Whether a frame with `payload` bytes may go now: within the congestion window and the
    /// peer's receive window (one frame always may, when nothing else is on the wire).
    func fits(_ payload: Int) -> Bool {
      onWire < congestionWindow
        && (onWire == 0 || bytesOnWire + Self.sizeBound(payload) <= configuration.receiveWindow)
    }
    for index in inFlight.indices where !inFlight[index].onWire {
      guard fits(inFlight[index].frame.payload.count) else { return bytes }
      countResend()
      if resendingUnanswered { inFlight[index].resentUnanswered = true }
      let encoded = transmit(inFlight[index].frame)
      inFlight[index].lastSent = departure(of: encoded.count, now: now)
      inFlight[index].retransmitted = true
      inFlight[index].onWire = true
      onWire += 1
      bytesOnWire += Self.sizeBound(inFlight[index].frame.payload.count)
      bytes += encoded
    }
    while inFlight.count < configuration.window, let next = waiting.first, fits(next.payload.count) {
      waiting.removeFirst()
      var flags: WireFrame.Flags = [.reliable]
      if !sessionStarted {
        flags.insert(.syn)
        sessionStarted = true
      }
      let frame = WireFrame(
        flags: flags, session: session, seq: nextSeq, ack: expected ?? 0, type: next.type, payload: next.payload)
      let encoded = transmit(frame)
      let left = departure(of: encoded.count, now: now)
      inFlight.append(
        InFlight(
          seq: nextSeq, frame: frame, queued: next.queued, firstSent: left, lastSent: left, retransmitted: false,
          onWire: true))
      nextSeq &+= 1
      onWire += 1
      bytesOnWire += Self.sizeBound(next.payload.count)
      bytes += encoded
    }
    return bytes
  }

  /// The most bytes a frame with `payload` bytes takes on the wire (header, CRC, COBS, delimiter).
  public static func sizeBound(_ payload: Int) -> Int {
    min(payload + WireFrame.headerSize + 2 + 3, WireFrame.maxEncodedSize)
  }

  /// Encodes `frame` with the current acknowledgement and counts it.
  mutating func transmit(_ frame: WireFrame) -> [UInt8] {
    var frame = frame
    if let expected {
      frame.flags.insert(.ackValid)
      frame.ack = expected
    }
    let encoded = frame.encoded()
    statistics.framesSent += 1
    statistics.bytesSent += encoded.count
    return encoded
  }

  /// Counts what is written from now on at `bytePeriod` seconds a byte (0: not paced): the line
  /// turned out to move at another rate than the link was made for (a probe over several).
  public mutating func setBytePeriod(_ bytePeriod: Double) {
    configuration.bytePeriod = bytePeriod.isFinite ? max(bytePeriod, 0) : 0
  }

  /// When `count` bytes written now have left the wire (now, without a byte period).
  mutating func departure(of count: Int, now: Double) -> Double {
    guard configuration.bytePeriod > 0 else { return now }
    wireFreeAt = max(wireFreeAt, now) + Double(count) * configuration.bytePeriod
    return wireFreeAt
  }

  /// An `ack` message (unreliable) carrying this side's expected number, with `flags` added.
  mutating func ackFrame(_ flags: WireFrame.Flags, seq: UInt8 = 0, now: Double) -> [UInt8] {
    let bytes = WireFrame(
      flags: flags.union(expected == nil ? [] : .ackValid), session: session, seq: seq, ack: expected ?? 0,
      type: WireMessage.Kind.ack.rawValue, payload: []
    ).encoded()
    _ = departure(of: bytes.count, now: now)
    return bytes
  }

  /// A host's link: a random session id and a random first sequence number, so a new process
  /// on a port is told from the previous one even when their session ids match (§4.1). When the
  /// board restarts, its unacknowledged timed messages (queue, replace, ROM effect: times on the
  /// board's old clock, §6.9) are dropped, not resent.
  public static func host(configuration: Configuration = Configuration()) -> ReliableLink {
    var configuration = configuration
    configuration.droppedOnPeerRestart.formUnion(
      [WireMessage.Kind.queueSegments, .replaceSegments, .playROMEffect].map(\.rawValue))
    var link = ReliableLink(
      session: UInt8.random(in: 1...255), firstSequence: UInt8.random(in: 0...255), configuration: configuration)
    link.drawsSessions = true
    return link
  }
}
