/// The reliable link layer of the wire protocol (docs/protocol.md §4): sequence numbers,
/// cumulative acknowledgements, a send window with go-back-N retransmission on timeout or
/// duplicate acks, duplicate suppression, and session start/restart detection (SYN).
///
/// A pure state machine: it never reads clocks or does I/O. Callers pass the current time in
/// seconds (any monotonic base) and write the bytes it returns. Both ends of a link, host and
/// board, run the same logic.
public struct ReliableLink: Sendable {
  /// Settings.
  public struct Configuration: Sendable, Hashable {
    /// Reliable frames in flight at most.
    public var window: Int
    /// The retransmission timer's settings.
    public var timer: RetransmitTimer
    /// Consecutive timeouts without progress after which the link counts as lost.
    public var maxTimeouts: Int

    /// Creates settings with the documented defaults (window 8, RTO 25 ms…2 s, 8 timeouts).
    public init(window: Int = 8, timer: RetransmitTimer = RetransmitTimer(), maxTimeouts: Int = 8) {
      self.window = min(max(window, 1), 64)
      self.timer = timer
      self.maxTimeouts = maxTimeouts
    }
  }

  /// Something the link noticed besides delivered frames.
  public enum Event: Sendable, Hashable {
    /// The peer started a new session after one was established (it restarted).
    case peerRestarted
    /// A frame in another protocol major version arrived (not acknowledged).
    case versionMismatch(UInt8)
    /// Retransmissions made no progress `maxTimeouts` times in a row.
    case linkLost
  }

  /// Counters.
  public struct Statistics: Sendable, Hashable {
    public var framesSent = 0
    public var bytesSent = 0
    public var retransmissions = 0
    public var framesDelivered = 0
    public var duplicatesDropped = 0
    public var outOfOrderDropped = 0
    public var timeouts = 0
  }

  /// What one call produced.
  public struct Output: Sendable {
    /// Bytes to write to the transport, in order.
    public var bytes: [UInt8] = []
    /// Reliable frames delivered in order (and unreliable ones as they came).
    public var frames: [WireFrame] = []
    /// Link events.
    public var events: [Event] = []
  }

  private struct InFlight: Sendable {
    let seq: UInt8
    var frame: WireFrame
    let firstSent: Double
    var lastSent: Double
    var retransmitted: Bool
  }

  private let configuration: Configuration
  /// This side's session id (sent in every frame).
  public let session: UInt8
  /// The peer's session id, once it started one.
  private var peerSession: UInt8?
  private var timer: RetransmitTimer
  private var nextSeq: UInt8 = 0
  private var sessionStarted = false
  private var inFlight: [InFlight] = []
  private var waiting: [(type: UInt8, payload: [UInt8])] = []
  private var expected: UInt8?
  private var duplicateAcks = 0
  private var consecutiveTimeouts = 0
  private var lastAckSent: UInt8?
  /// Counters so far.
  public private(set) var statistics = Statistics()

  /// Creates a link in its initial state (the first frame it sends starts a session).
  ///
  /// - Parameters:
  ///   - session: this side's session id; it must differ from the previous run's (a board uses
  ///     its boot counter, the host a random byte).
  ///   - configuration: window and timer settings.
  public init(session: UInt8 = 0, configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.session = session
    timer = configuration.timer
  }

  /// The current retransmission timeout.
  public var retransmitTimeout: Double { timer.timeout }

  /// Reliable frames sent and not yet acknowledged, plus those waiting for window space.
  public var unacknowledged: Int { inFlight.count + waiting.count }

  /// When ``poll(now:)`` next has work (a retransmission), if anything is in flight.
  public var nextDeadline: Double? {
    inFlight.first.map { $0.lastSent + timer.timeout }
  }

  /// Queues a reliable message; returns the bytes to write now (empty when the window is full:
  /// the message goes out as acknowledgements free the window).
  public mutating func send(_ message: WireMessage, now: Double) -> [UInt8] {
    send(type: message.kind.rawValue, payload: message.payload(), now: now)
  }

  /// Queues a reliable frame of any type (for tests of unknown types).
  public mutating func send(type: UInt8, payload: [UInt8], now: Double) -> [UInt8] {
    waiting.append((type, payload))
    return fillWindow(now: now)
  }

  /// An unreliable frame (no sequence number, never retransmitted), e.g. an `error` reply to a
  /// frame of the wrong version.
  public func unreliable(_ message: WireMessage, version: UInt8 = WireFrame.protocolVersion) -> [UInt8] {
    var flags: WireFrame.Flags = []
    if expected != nil { flags.insert(.ackValid) }
    return WireFrame(
      version: version, flags: flags, session: session, seq: 0, ack: expected ?? 0, type: message.kind.rawValue,
      payload: message.payload()
    ).encoded()
  }

  private mutating func fillWindow(now: Double) -> [UInt8] {
    var bytes: [UInt8] = []
    while inFlight.count < configuration.window && !waiting.isEmpty {
      let next = waiting.removeFirst()
      var flags: WireFrame.Flags = [.reliable]
      if !sessionStarted {
        flags.insert(.syn)
        sessionStarted = true
      }
      if expected != nil { flags.insert(.ackValid) }
      let frame = WireFrame(
        flags: flags, session: session, seq: nextSeq, ack: expected ?? 0, type: next.type, payload: next.payload)
      inFlight.append(InFlight(seq: nextSeq, frame: frame, firstSent: now, lastSent: now, retransmitted: false))
      nextSeq &+= 1
      bytes += transmit(frame)
    }
    return bytes
  }

  private mutating func transmit(_ frame: WireFrame) -> [UInt8] {
    var frame = frame
    if let expected {
      frame.flags.insert(.ackValid)
      frame.ack = expected
      lastAckSent = expected
    }
    let encoded = frame.encoded()
    statistics.framesSent += 1
    statistics.bytesSent += encoded.count
    return encoded
  }

  /// Handles frames that arrived; returns deliveries, acknowledgements to write and events.
  public mutating func receive(_ frames: [WireFrame], now: Double) -> Output {
    var output = Output()
    var mustAck = false
    for frame in frames {
      guard frame.version == WireFrame.protocolVersion else {
        output.events.append(.versionMismatch(frame.version))
        continue
      }
      let startsSession = frame.flags.contains(.reliable) && frame.flags.contains(.syn)
      // Frames from a session other than the peer's current one are stale (or from a peer that
      // restarted and has not sent its SYN yet): ignore them, acks included.
      if !startsSession, let peerSession, frame.session != peerSession { continue }
      if frame.flags.contains(.ackValid) {
        processAck(frame.ack, now: now, output: &output)
      }
      guard frame.flags.contains(.reliable) else {
        if frame.type != WireMessage.Kind.ack.rawValue { output.frames.append(frame) }
        continue
      }
      mustAck = true
      if startsSession {
        if frame.session == peerSession, let expected {
          // A SYN of the session we already follow: a retransmission.
          if Int8(bitPattern: frame.seq &- expected) < 0 {
            statistics.duplicatesDropped += 1
            continue
          }
        } else {
          if peerSession != nil {
            output.events.append(.peerRestarted)
            restartSending(now: now, output: &output)
          }
          peerSession = frame.session
          expected = frame.seq
        }
      }
      guard let current = expected else { continue }  // no session yet: wait for a SYN
      if frame.seq == current {
        expected = current &+ 1
        statistics.framesDelivered += 1
        output.frames.append(frame)
      } else if Int8(bitPattern: frame.seq &- current) < 0 {
        statistics.duplicatesDropped += 1
      } else {
        statistics.outOfOrderDropped += 1
      }
    }
    if mustAck, let expected {
      lastAckSent = expected
      let ack = WireFrame(
        flags: [.ackValid], session: session, seq: 0, ack: expected, type: WireMessage.Kind.ack.rawValue, payload: [])
      output.bytes += ack.encoded()
    }
    output.bytes += fillWindow(now: now)
    return output
  }

  private mutating func processAck(_ ack: UInt8, now: Double, output: inout Output) {
    guard let first = inFlight.first else { return }
    // Frames acknowledged: those before `ack` within the window.
    let acknowledged = Int(ack &- first.seq)
    if acknowledged > 0 && acknowledged <= inFlight.count {
      let newest = inFlight[acknowledged - 1]
      if !newest.retransmitted { timer.sample(now - newest.firstSent) }
      inFlight.removeFirst(acknowledged)
      duplicateAcks = 0
      consecutiveTimeouts = 0
      // Progress: drop the exponential backoff (frames sent from now on give fresh samples).
      timer.resetBackoff()
    } else if ack == first.seq {
      duplicateAcks += 1
      if duplicateAcks == 2 {
        // Fast retransmit: the peer keeps asking for the first in-flight frame.
        output.bytes += retransmitAll(now: now)
      }
    }
  }

  private mutating func restartSending(now: Double, output: inout Output) {
    // The peer forgot our sequence: start a new session of our own, resending what it missed.
    let pending = inFlight.map { ($0.frame.type, $0.frame.payload) }
    inFlight.removeAll()
    waiting.insert(contentsOf: pending.map { (type: $0.0, payload: $0.1) }, at: 0)
    sessionStarted = false
    nextSeq = 0
    duplicateAcks = 0
  }

  /// Retransmits when the oldest frame's timer ran out; call at ``nextDeadline``.
  public mutating func poll(now: Double) -> Output {
    var output = Output()
    guard let first = inFlight.first, now >= first.lastSent + timer.timeout else { return output }
    statistics.timeouts += 1
    consecutiveTimeouts += 1
    timer.backOff()
    if consecutiveTimeouts >= configuration.maxTimeouts {
      output.events.append(.linkLost)
      consecutiveTimeouts = 0
    }
    output.bytes = retransmitAll(now: now)
    return output
  }

  private mutating func retransmitAll(now: Double) -> [UInt8] {
    // A leading delimiter flushes any partial frame the peer may hold.
    var bytes: [UInt8] = [0]
    for index in inFlight.indices {
      inFlight[index].lastSent = now
      inFlight[index].retransmitted = true
      statistics.retransmissions += 1
      bytes += transmit(inFlight[index].frame)
    }
    return bytes
  }

  /// Forgets everything and starts over with a new session id (after reopening a port).
  public mutating func reset(session: UInt8) {
    self = ReliableLink(session: session, configuration: configuration)
  }
}
