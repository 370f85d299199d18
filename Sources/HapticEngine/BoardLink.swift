public import HapticRenderer
public import HapticWire

/// Something that happened to a board link.
public enum BoardLinkEvent: Sendable, Hashable {
  /// The board restarted (a reset notice or a new board session).
  case boardReset
  /// The link is gone, with the reason.
  case disconnected(String)
}

/// Counters of a board link.
public struct BoardLinkStatistics: Sendable, Hashable {
  /// Bytes written to the board.
  public var bytesSent = 0
  /// Frames retransmitted.
  public var retransmissions = 0
  /// Losses recovered (fast recoveries after a NAK plus retransmission timeouts).
  public var recoveries = 0
  /// The smoothed round trip, seconds, once measured.
  public var roundTrip: Double?
  /// How long acknowledgements took lately, recoveries included (a decaying maximum), seconds.
  public var deliveryDelay = 0.0
  /// The link's retransmission timeout now, seconds.
  public var retransmitTimeout = 0.025
  /// How fast the board's clock runs against the host's, parts per million (positive: the
  /// board's is fast), once clock sync has estimated it.
  public var driftPPM: Double?
  /// False while the link has carried too little to tell a clean line from a lossy one (a new
  /// serial link: ``SerialBoardLink/provenBytes``); true once it has, and for links that lose
  /// nothing by construction. The engine treats an unproven link as a lossy one.
  public var isProven = true
  /// How far the board's fastest clock readings lie from the clock fit, seconds
  /// (HapticWire's `ClockSync.residual`), once fitted.
  public var clockResidual: Double?
  /// The fastest clock query's round trip in the clock fit's window, seconds (half of it bounds
  /// how far off the board's clock may be read), once measured.
  public var clockRoundTrip: Double?
  /// Seconds between clock queries now (HapticTransport's
  /// `BoardConnection.clockQueryInterval`), nil without clock sync.
  public var clockQueryInterval: Double?

  /// Creates counters.
  public init(
    bytesSent: Int = 0, retransmissions: Int = 0, recoveries: Int = 0, roundTrip: Double? = nil,
    deliveryDelay: Double = 0, retransmitTimeout: Double = 0.025, driftPPM: Double? = nil, isProven: Bool = true
  ) {
    self.isProven = isProven
    self.retransmitTimeout = retransmitTimeout
    self.driftPPM = driftPPM
    self.bytesSent = bytesSent
    self.retransmissions = retransmissions
    self.recoveries = recoveries
    self.roundTrip = roundTrip
    self.deliveryDelay = deliveryDelay
  }
}

/// What the engine needs from a board: its capabilities, a clock mapping, a reliable message
/// channel and notice of resets and disconnects. ``SerialBoardLink`` runs over a serial port or
/// pseudo-terminal; `SimulatorBoardLink` (the `HapticEngineSimulator` library) over the
/// in-process simulator.
public protocol BoardLink: AnyObject, Sendable {
  /// The board's announced capabilities.
  var capabilities: BoardCapabilities { get }
  /// The profile the renderer targets for this board.
  var profile: BoardProfile { get }
  /// The link's host clock, seconds.
  var hostNow: Double { get }
  /// The board clock in seconds at host time `t`, once known (clock sync).
  func boardSeconds(atHost t: Double) -> Double?
  /// How far off the board-time estimate may be, seconds (half the fastest clock-sync round
  /// trip; 0 when the clock is known exactly, as in process).
  var clockUncertainty: Double { get }
  /// The least time a change needs to reach the board and take effect (the shortest segment
  /// batch's transmission at the link's rate, ``handlingLead`` and the clock uncertainty),
  /// seconds.
  var minimumLead: Double { get }
  /// Seconds from a message's last byte arriving to the board having taken it, with what may
  /// slip onto the wire ahead of it (an acknowledgement, a clock query): the packing of a change
  /// counts it on top of each message's transmission (``HapticEngine`` `+Fitting`). 0 in process.
  var handlingLead: Double { get }
  /// Seconds until the bytes the host already wrote have left the wire (their transmission at
  /// the link's rate): a message sent now queues behind them. 0 when nothing waits.
  var wireBacklog: Double { get }
  /// Seconds a byte takes on the wire (10 bits at the line's rate; 0 in process).
  var secondsPerByte: Double { get }
  /// Sends a message reliably.
  func send(_ message: WireMessage) throws(HapticEngineError)
  /// Sends messages reliably, in order; a link over a port writes them at once (one system
  /// call, and the board answers them with one acknowledgement when they arrive together).
  func send(contentsOf messages: [WireMessage]) throws(HapticEngineError)
  /// Registers the handler of link events (called on a link thread).
  func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void)
  /// Registers the handler of messages from the board (status, errors…).
  func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void)
  /// Counters.
  var statistics: BoardLinkStatistics { get }
  /// Closes the link, stopping the drive first unless `stopDrive` is false.
  func close(stopDrive: Bool)
  /// Whether the link's time is virtual: it moves only with ``advance(to:)`` (deterministic
  /// tests), and the engine runs no loop thread of its own. False for a real board.
  var isVirtual: Bool { get }
  /// A virtual-clock link moves host time to `t`, running the board on the way; a real-time
  /// link ignores it.
  func advance(to t: Double)
}

extension BoardLink {
  /// The board takes a message at once, by default (an in-process link).
  public var handlingLead: Double { 0 }
  /// Nothing waits on the wire, by default (an in-process link).
  public var wireBacklog: Double { 0 }
  /// No wire, by default (an in-process link).
  public var secondsPerByte: Double { 0 }
  /// Real time, by default.
  public var isVirtual: Bool { false }
  /// One message after the other, by default.
  public func send(contentsOf messages: [WireMessage]) throws(HapticEngineError) {
    for message in messages { try send(message) }
  }
  /// Nothing to do in real time.
  public func advance(to t: Double) {}
}
