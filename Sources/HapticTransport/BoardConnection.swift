import Foundation
public import HapticWire
import HapticLocks

/// A live link to a board: a reader thread feeding the reliable link, heartbeats while the board
/// has drive and the line is otherwise quiet (so the board's watchdog stays quiet only as long
/// as the host is alive), periodic clock queries
/// for clock sync, and a `stop` sent on close so no actuator is left running.
public final class BoardConnection: Sendable {
  /// Settings.
  public struct Configuration: Sendable {
    /// The board's watchdog timeout; heartbeats go out after half of it without traffic
    /// (``BoardConnection/heartbeatShare``), while the board may have drive queued
    /// (``BoardConnection`` `+Armed`).
    public var watchdog: Double = 0.100
    /// Board clock ticks per drive frame (its frame period at its clock rate), to tell when the
    /// drive sent has played; 0 when unknown: heartbeats then never stop.
    public var ticksPerFrame: UInt64 = 0
    /// Seconds between clock queries once synchronised (0.9839 s, as Klipper: an odd period).
    public var clockInterval: Double = 0.9839
    /// Seconds between clock queries while synchronising.
    public var clockStartInterval: Double = 0.050
    /// Seconds between clock queries once the fit has settled on a board behind a fast line
    /// (nil: always ``clockInterval``): after ``BoardConnection/settledSamples`` round trips,
    /// while the fastest of them is within ``BoardConnection/settledRoundTrip``
    /// (docs/protocol.md §8). A rig asks every board ten times a second, and a board on a local
    /// port twice once settled; a UART's or a network's slower round trips keep the fast rate.
    public var clockSettledInterval: Double?
    /// How long a due clock query waits for an idle line — nothing unacknowledged and the wire
    /// free of what the host wrote — before it goes anyway. A query queued behind segment
    /// frames reaches the board late by their wire time, which the midpoint of its round trip
    /// reads as the board clock being ahead: at 1 % loss and 115 200 baud the engine's clock
    /// ran 8 ms ahead, and every change and onset landed 8 ms late.
    public var clockIdleWait: Double = 0.5
    /// The link's window and timer.
    public var link = ReliableLink.Configuration()
    /// The thread that reads the board, shared with other links (a rig's): nil for a reader
    /// thread of the connection's own, as over a transport without a ``ByteTransport/pollDescriptor``.
    public var reactor: Reactor?

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

  /// Everything the reader thread and the senders share, under one lock.
  struct State: Sendable {
    var link: ReliableLink
    var sync: ClockSync?
    var lastSent = 0.0
    var lastClockQuery = -Double.infinity
    var pendingQueries: [UInt16: Double] = [:]
    /// Clock-query ids start at random: a board resends a previous session's unacknowledged
    /// answers when a new session starts, and a stale answer must not pass for a fresh sample.
    var nextQuery = UInt16.random(in: 1...UInt16.max)
    var closed = false
    /// Why the port failed, when it did (``BoardConnection/finish(_:cause:)``): a send racing the
    /// reader's discovery of an unplug or a dropped connection says that, not only that the
    /// connection is closed.
    var failure: TransportError?
    /// Host seconds until which the board may have drive queued (``arm(for:state:)``).
    var armedUntil = -Double.infinity
    /// `close()` has begun: its `stop` is the last frame the host sends (no heartbeat or clock
    /// query after it).
    var closing = false
    /// The reader thread, once it runs, and whether it has ended.
    var reader: pthread_t?
    var readerEnded = false
    /// Host seconds at which the reader's current wait for input ends (``BoardConnection/readTimeout()``).
    var readerWakesAt = -Double.infinity
    /// The reader's place on its ``Configuration/reactor`` (nil: a thread of its own).
    var reactorToken: Int?
  }

  let transport: any ByteTransport
  let configuration: Configuration
  let state: Locked<State>
  /// The wire's order: held from the moment a frame is numbered (``state``'s link) until its
  /// bytes are written, by every writer — the senders and the reader thread (acknowledgements,
  /// resends, heartbeats, clock queries). Frames therefore leave in the order they were
  /// numbered, and two writes never interleave on a full port. Always taken before ``state``,
  /// never while holding it, and never held while a callback runs.
  let wireOrder = Lock()
  let start: Double
  let onMessage: @Sendable (WireMessage) -> Void
  let onEvent: @Sendable (Event) -> Void
  /// The reader's frame decoder (only the reader uses it).
  let decoder = Locked(FrameDecoder())
  /// The reactor that reads the board, when it does (``Configuration/reactor`` and a transport
  /// with a descriptor); nil: a reader thread of the connection's own.
  let reactor: Reactor?

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
    start = origin ?? MonotonicTime.seconds()
    state = Locked(
      State(
        link: continuing ?? ReliableLink.host(configuration: configuration.link),
        sync: clockFrequency.map { ClockSync(clockFrequency: $0) }))
    self.onMessage = onMessage
    self.onEvent = onEvent
    let descriptor = configuration.reactor == nil ? nil : transport.pollDescriptor
    reactor = descriptor == nil ? nil : configuration.reactor
    try? transport.write([0])
    if let reactor, let descriptor {
      let token = reactor.add(ReactorReader(connection: self, descriptor: descriptor))
      state.withLock { $0.reactorToken = token }
    } else {
      let thread = Thread { [self] in self.run() }
      thread.name = "BoardConnection \(transport.name)"
      thread.start()
    }
  }

  /// Seconds since the connection opened (the host time base of ``clockSync``).
  public var now: Double { MonotonicTime.seconds() - start }

  /// The current clock-sync estimate (host time = ``now``), if the board clock is known.
  public var clockSync: ClockSync? { state.withLock { $0.sync } }

  /// Seconds until what the host wrote has left the wire, at the link's byte period.
  public var wireBacklog: Double {
    let t = now
    return state.withLock { max($0.link.wireFreeAt - t, 0) }
  }

  /// Link counters.
  public var statistics: ReliableLink.Statistics { state.withLock { $0.link.statistics } }

  /// Seconds between clock queries now (``Configuration/clockSettledInterval``), nil without
  /// clock sync.
  public var clockQueryInterval: Double? { state.withLock { state in state.sync.map { queryInterval(for: $0) } } }

  /// The link's smoothed round trip (once measured), how long acknowledgements took lately,
  /// recoveries included, and the retransmission timeout (docs/protocol.md §8).
  public var timing: (roundTrip: Double?, delivery: Double, retransmitTimeout: Double) {
    let t = now
    return state.withLock { ($0.link.smoothedRTT, $0.link.deliveryDelay.value(at: t), $0.link.retransmitTimeout) }
  }

  /// Sends a message reliably (queued when the window is full). Numbered and written in one
  /// step of the wire's order: a frame numbered after another never leaves before it.
  public func send(_ message: WireMessage) throws(TransportError) {
    try send(contentsOf: [message])
  }

  /// Sends `messages` reliably, in order, with one write: the frames the window takes now go
  /// out together (the rest when acknowledgements make room, as for ``send(_:)``).
  public func send(contentsOf messages: [WireMessage]) throws(TransportError) {
    guard !messages.isEmpty else { return }
    try wireOrder.withLock { () throws(TransportError) in
      let bytes: [UInt8]? = state.withLock { state in
        guard !state.closed else { return nil }
        state.lastSent = now
        var bytes: [UInt8] = []
        for message in messages {
          arm(for: message, state: &state)
          bytes += state.link.send(message, now: state.lastSent)
        }
        return bytes
      }
      guard let bytes else {
        throw state.withLock { $0.failure } ?? TransportError(.closed, port: transport.name, "the connection is closed")
      }
      do throws(TransportError) {
        try transport.write(bytes)
      } catch {
        // The reader may have found the port gone and closed it under this write.
        throw state.withLock { $0.failure } ?? error
      }
      // The acknowledgement wakes the reader. Should it not come, the frames' own deadlines (a
      // poll, a resend) must not wait longer than while the board is busy: a reader waiting
      // longer (an idle board, or until a heartbeat is due) is woken now.
      let wake = state.withLock { state in
        let t = now
        guard state.readerWakesAt > t + Self.busyReadLimit else { return false }
        state.readerWakesAt = t
        return true
      }
      if wake {
        if let reactor { reactor.wake() } else { transport.interruptRead() }
      }
    }
  }

  /// Sends `stop` for every channel (unless `stopDrive` is false), waits up to `timeout` for it
  /// to be acknowledged, and closes the port.
  public func close(stopDrive: Bool = true, timeout: Double = 0.25) {
    state.withLock { $0.closing = true }
    let token = state.withLock { $0.reactorToken }
    if stopDrive, (try? send(.stop(channels: 0xFF))) != nil {
      let deadline = now + timeout
      while now < deadline && state.withLock({ $0.link.unacknowledged > 0 && !$0.closed }) {
        // On the reactor's own thread (a handler it runs) nothing else reads: read here.
        if token != nil, let reactor, reactor.isCurrentThread {
          let bytes: [UInt8]
          do { bytes = try transport.read(timeout: 0.002) } catch { break }
          if !step(bytes) { break }
        } else {
          usleep(1000)
        }
      }
    }
    state.withLock { $0.closed = true }
    if let token, let reactor {
      reactor.remove(token)
      state.withLock { $0.readerEnded = true }
    }
    transport.interruptRead()
    // Wait for the reader to end, unless this is the reader (a close from a callback).
    let me = pthread_self()
    while !state.withLock({ $0.readerEnded || $0.reader.map { pthread_equal($0, me) != 0 } ?? false }) {
      usleep(500)
    }
    transport.close()
  }
}
