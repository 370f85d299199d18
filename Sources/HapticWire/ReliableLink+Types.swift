/// The link's settings, events, counters and call results (docs/protocol.md §4).
extension ReliableLink {
  /// Settings.
  public struct Configuration: Sendable, Hashable {
    /// Reliable frames in flight at most.
    public var window: Int
    /// The retransmission timer's settings.
    public var timer: RetransmitTimer
    /// Consecutive timeouts without progress after which the link counts as lost.
    public var maxTimeouts: Int
    /// Seconds one byte takes on the wire (10 bits at the baud rate), 0 when not paced.
    public var bytePeriod: Double
    /// The least wait, after the newest frame left the wire, before polling the peer for its
    /// acknowledgement (the poll timeout is the larger of this and twice the smoothed RTT).
    public var minimumPollTimeout: Double
    /// Polls sent in a row without progress (an acknowledgement of new frames) before only the
    /// RTO resends.
    public var maxPolls: Int
    /// Fast recoveries (NAK or duplicate acks) in a row without progress before only the RTO
    /// resends (§4.3: no exchange of NAKs and resends can go on by itself).
    public var maxFastRecoveries: Int
    /// Bytes this side lets be unacknowledged on the wire (§4.3: every receiver takes one
    /// maximum frame plus 64 bytes, 322, while it processes the one before).
    public var receiveWindow: Int
    /// Message types this side drops instead of resending when the peer restarts (§4.1, §6.9):
    /// a host's timed messages, whose times are on the board's old clock.
    public var droppedOnPeerRestart: Set<UInt8> = []

    /// Creates settings with the documented defaults (window 8 frames and 322 bytes, RTO
    /// 25 ms…2 s, 8 timeouts, polls after 2 ms at least, 6 in a row, 3 fast recoveries in a
    /// row).
    public init(
      window: Int = ReliableLink.protocolWindow, timer: RetransmitTimer = RetransmitTimer(), maxTimeouts: Int = 8, bytePeriod: Double = 0,
      minimumPollTimeout: Double = 0.002, maxPolls: Int = 6, maxFastRecoveries: Int = 3,
      receiveWindow: Int = ReliableLink.Configuration.minimumReceiveWindow
    ) {
      self.maxFastRecoveries = max(maxFastRecoveries, 1)
      self.receiveWindow = max(receiveWindow, WireFrame.maxEncodedSize)
      self.window = min(max(window, 1), 64)
      self.timer = timer
      self.maxTimeouts = maxTimeouts
      self.bytePeriod = bytePeriod.isFinite ? max(bytePeriod, 0) : 0
      self.minimumPollTimeout = minimumPollTimeout.isFinite ? max(minimumPollTimeout, 0.001) : 0.005
      self.maxPolls = max(maxPolls, 0)
    }

    /// The receive window every board and host offers (§4.3): a maximum frame (258 bytes)
    /// plus 64.
    public static let minimumReceiveWindow = WireFrame.maxEncodedSize + 64

    /// Seconds per byte at `baud` (8N1: 10 bits a byte).
    public static func bytePeriod(baud: Int) -> Double { baud > 0 ? 10 / Double(baud) : 0 }
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
    /// Frames sent again on a link whose peer answers (any cause).
    public var retransmissions = 0
    /// Frames sent again before the peer was ever heard: nobody was listening yet (a board
    /// still booting after the Uno's auto-reset), so they say nothing of the line and count in
    /// neither ``retransmissions`` nor ``timeouts``.
    public var unansweredResends = 0
    public var framesDelivered = 0
    public var duplicatesDropped = 0
    public var outOfOrderDropped = 0
    /// Retransmission timeouts (on a link whose peer was heard).
    public var timeouts = 0
    /// Go-back-N resends started by a NAK or duplicate acks (before the RTO).
    public var fastRecoveries = 0
    /// Polls sent.
    public var polls = 0
    /// NAKs sent (gaps this side noticed).
    public var naksSent = 0

    /// Messages dropped unsent when the peer restarted (``Configuration/droppedOnPeerRestart``).
    public var droppedOnPeerRestart = 0
    /// Segment batches withdrawn unsent: a later `replace` of their channel from their start
    /// or earlier made them moot (``ReliableLink/withdrawSuperseded(by:)``).
    public var withdrawnSuperseded = 0
    /// New sessions the board started within one boot for a new session of this host's (its
    /// id unchanged, another first number): taken without a reset (§4.1).
    public var peerSessionRestarts = 0

    /// Every frame sent again: retransmissions and resends before the peer was heard.
    public var resends: Int { retransmissions + unansweredResends }

    /// Losses recovered: fast recoveries plus timeouts.
    public var recoveries: Int { fastRecoveries + timeouts }
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
}
