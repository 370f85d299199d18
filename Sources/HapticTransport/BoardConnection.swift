import Foundation
public import HapticWire

/// A live link to a board: a reader thread feeding the reliable link, heartbeats while idle (so
/// the board's watchdog stays quiet only as long as the host is alive), periodic clock queries
/// for clock sync, and a `stop` sent on close so no actuator is left running.
public final class BoardConnection: @unchecked Sendable {
  /// Settings.
  public struct Configuration: Sendable {
    /// The board's watchdog timeout; heartbeats go out after a quarter of it without traffic.
    public var watchdog: Double = 0.100
    /// Seconds between clock queries once synchronised (0.9839 s, as Klipper: an odd period).
    public var clockInterval: Double = 0.9839
    /// Seconds between clock queries while synchronising.
    public var clockStartInterval: Double = 0.050
    /// How long a due clock query waits for an idle line — nothing unacknowledged and the wire
    /// free of what the host wrote — before it goes anyway. A query queued behind segment
    /// frames reaches the board late by their wire time, which the midpoint of its round trip
    /// reads as the board clock being ahead: at 1 % loss and 115 200 baud the engine's clock
    /// ran 8 ms ahead, and every change and onset landed 8 ms late.
    public var clockIdleWait: Double = 0.5
    /// The link's window and timer.
    public var link = ReliableLink.Configuration()

    /// Creates the default settings.
    public init() {}
  }

  /// Something that happened to the connection.
  public enum Event: Sendable, Equatable {
    /// The board restarted (a new session or a reset notice).
    case boardReset
    /// The link or the port failed; the connection is closed.
    case disconnected(String)
  }

  private let transport: any ByteTransport
  private let configuration: Configuration
  private let lock = NSLock()
  private var link: ReliableLink
  private var sync: ClockSync?
  private var clockFrequency: Double?
  private var lastSent = 0.0
  private var lastClockQuery = -Double.infinity
  private var pendingQueries: [UInt16: Double] = [:]
  /// Clock-query ids start at random: a board resends a previous session's unacknowledged
  /// answers when a new session starts, and a stale answer must not pass for a fresh sample.
  private var nextQuery = UInt16.random(in: 1...UInt16.max)
  private var closed = false
  private var thread: Thread?
  private let start: Double
  private let onMessage: @Sendable (WireMessage) -> Void
  private let onEvent: @Sendable (Event) -> Void

  /// Opens a connection over `transport` and starts its reader thread.
  ///
  /// - Parameters:
  ///   - transport: the port (the connection closes it on ``close()``).
  ///   - clockFrequency: the board clock from its capabilities, to start clock sync at once.
  ///   - configuration: heartbeat, clock and link settings.
  ///   - onMessage: called on the reader thread for every message the board sends.
  ///   - onEvent: called on the reader thread on a board reset or a disconnect.
  ///   - continuing: a link whose session goes on (a probe's on the same port), with `origin`,
  ///     the ``MonotonicTime`` reading its times count from; else a new session (then
  ///     `configuration.link` applies).
  public init(
    transport: any ByteTransport, clockFrequency: Double?, configuration: Configuration = Configuration(),
    continuing: ReliableLink? = nil, origin: Double? = nil,
    onMessage: @escaping @Sendable (WireMessage) -> Void = { _ in },
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    self.transport = transport
    self.configuration = configuration
    self.clockFrequency = clockFrequency
    start = origin ?? MonotonicTime.seconds()
    link = continuing ?? ReliableLink.host(configuration: configuration.link)
    sync = clockFrequency.map { ClockSync(clockFrequency: $0) }
    self.onMessage = onMessage
    self.onEvent = onEvent
    let thread = Thread { [self] in self.run() }
    thread.name = "BoardConnection \(transport.name)"
    self.thread = thread
    try? transport.write([0])
    thread.start()
  }

  /// Seconds since the connection opened (the host time base of ``clockSync``).
  public var now: Double { MonotonicTime.seconds() - start }

  /// The current clock-sync estimate (host time = ``now``), if the board clock is known.
  public var clockSync: ClockSync? { lock.withLock { sync } }

  /// Link counters.
  public var statistics: ReliableLink.Statistics { lock.withLock { link.statistics } }

  /// The link's smoothed round trip (once measured), how long acknowledgements took lately,
  /// recoveries included, and the retransmission timeout (docs/protocol.md §8).
  public var timing: (roundTrip: Double?, delivery: Double, retransmitTimeout: Double) {
    let t = now
    return lock.withLock { (link.smoothedRTT, link.deliveryDelay.value(at: t), link.retransmitTimeout) }
  }

  /// Sends a message reliably (queued when the window is full).
  public func send(_ message: WireMessage) throws(TransportError) {
    let bytes: [UInt8]? = lock.withLock {
      guard !closed else { return nil }
      lastSent = now
      return link.send(message, now: lastSent)
    }
    guard let bytes else { throw TransportError(.closed, port: transport.name, "the connection is closed") }
    try transport.write(bytes)
  }

  /// Sends `stop` for every channel (unless `stopDrive` is false), waits up to `timeout` for it
  /// to be acknowledged, and closes the port.
  public func close(stopDrive: Bool = true, timeout: Double = 0.25) {
    if stopDrive, (try? send(.stop(channels: 0xFF))) != nil {
      let deadline = now + timeout
      while now < deadline && lock.withLock({ link.unacknowledged > 0 && !closed }) { usleep(1000) }
    }
    lock.withLock { closed = true }
    if let thread, Thread.current != thread {
      while !thread.isFinished { usleep(500) }
    }
    transport.close()
  }

  private func run() {
    var decoder = FrameDecoder()
    while true {
      let bytes: [UInt8]
      do {
        bytes = try transport.read(timeout: readTimeout())
      } catch {
        finish(.disconnected(error.description))
        return
      }
      let frames = decoder.feed(bytes)
      var outgoing: [UInt8] = []
      var messages: [WireMessage] = []
      var events: [Event] = []
      let stop: Bool = lock.withLock {
        if closed { return true }
        let t = now
        let output = link.receive(frames, now: t)
        outgoing += output.bytes
        for event in output.events {
          switch event {
          case .peerRestarted: events.append(.boardReset)
          case .linkLost: events.append(.disconnected("the board stopped answering (link lost)"))
          case .versionMismatch(let version): events.append(.disconnected("the board speaks protocol version \(version)"))
          }
        }
        for frame in output.frames {
          guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
          if case .clock(let id, let ticks) = message, let sent = pendingQueries.removeValue(forKey: id) {
            sync?.add(hostSend: sent, hostReceive: t, boardTicks: ticks)
            continue
          }
          if case .resetNotice = message { events.append(.boardReset) }
          messages.append(message)
        }
        outgoing += link.poll(now: t).bytes
        // Clock queries: quickly while synchronising, then about once a second.
        if let due = nextClockQuery(), t >= due, pendingQueries.isEmpty || t - lastClockQuery > 1 {
          pendingQueries = [nextQuery: t]
          outgoing += link.send(.clockQuery(id: nextQuery), now: t)
          nextQuery &+= 1
          lastClockQuery = t
          lastSent = t
        }
        // Heartbeat after a quarter of the watchdog without traffic, when nothing is in flight
        // (then polls and resends feed the watchdog; a heartbeat would wait behind them).
        if t - lastSent >= configuration.watchdog / 4 && link.unacknowledged == 0 {
          outgoing += link.send(.heartbeat, now: t)
          lastSent = t
        }
        return false
      }
      if stop { return }
      if !outgoing.isEmpty {
        do {
          try transport.write(outgoing)
        } catch {
          finish(.disconnected(error.description))
          return
        }
      }
      for message in messages { onMessage(message) }
      for event in events {
        onEvent(event)
        if case .disconnected = event {
          lock.withLock { closed = true }
          return
        }
      }
    }
  }

  /// How long the reader may block: until the next thing it must do itself (a heartbeat, a
  /// clock query, a retransmission), between 1 and 20 ms. Sends from other threads write
  /// directly and never wait for it.
  private func readTimeout() -> Double {
    lock.withLock {
      let t = now
      var due = link.unacknowledged == 0 ? lastSent + configuration.watchdog / 4 : t + 0.020
      if let query = nextClockQuery() { due = min(due, query) }
      if let deadline = link.nextDeadline { due = min(due, deadline) }
      return min(max(due - t, 0.001), 0.020)
    }
  }

  /// When the next clock query goes out (nil without clock sync): quickly while synchronising,
  /// then about once a second, once nothing of the host's is unacknowledged and its bytes have
  /// left the wire — at most ``Configuration/clockIdleWait`` later (with frames unacknowledged,
  /// their ack wakes the reader before that). Call with the lock held.
  private func nextClockQuery() -> Double? {
    guard let sync else { return nil }
    let interval = sync.isSynchronized ? configuration.clockInterval : configuration.clockStartInterval
    let latest = lastClockQuery + interval + configuration.clockIdleWait
    guard link.unacknowledged == 0 else { return latest }
    return min(max(lastClockQuery + interval, link.wireFreeAt), latest)
  }

  private func finish(_ event: Event) {
    let wasOpen = lock.withLock { () -> Bool in
      defer { closed = true }
      return !closed
    }
    if wasOpen { onEvent(event) }
  }
}
