import Foundation
import HapticWire
import HapticLocks

/// The connection's reader thread: frames in, acknowledgements, resends, clock queries and
/// heartbeats out — written in the wire's order, like every send.
extension BoardConnection {
  /// What one pass of the reader found: bytes to write, messages and events to hand on.
  private struct Pass {
    var outgoing: [UInt8] = []
    var messages: [WireMessage] = []
    var events: [Event] = []
    var stop = false
  }

  func run() {
    state.withLock { $0.reader = pthread_self() }
    defer { state.withLock { $0.readerEnded = true } }
    while true {
      let bytes: [UInt8]
      do {
        bytes = try transport.read(timeout: readTimeout())
      } catch {
        finish(.disconnected(error.description), cause: error)
        return
      }
      guard step(bytes) else { return }
    }
  }

  /// One round of the reader (its thread's, or its ``Reactor``'s): feeds `bytes` to the link,
  /// writes what is due and hands messages and events on. False when the reader must end.
  ///
  /// - Parameters:
  ///   - receivedAt: when `bytes` were read (connection seconds; nil: now), the arrival time
  ///     of a clock answer among them.
  ///   - queries: whether a clock query due goes out now (a reactor's reader sends it once
  ///     every source of its wake-up is served: ``sendDueClockQuery()``).
  func step(_ bytes: [UInt8], receivedAt: Double? = nil, queries: Bool = true) -> Bool {
    let frames = decoder.withLock { $0.feed(bytes) }
    let pass: Pass
    do {
      pass = try wireOrder.withLock { () throws(TransportError) -> Pass in
        let pass = state.withLock { state in process(frames, state: &state, receivedAt: receivedAt, queries: queries) }
        if !pass.stop && !pass.outgoing.isEmpty { try transport.write(pass.outgoing) }
        return pass
      }
    } catch {
      finish(.disconnected(error.description), cause: error)
      return false
    }
    if pass.stop { return false }
    for message in pass.messages { onMessage(message) }
    for event in pass.events {
      onEvent(event)
      if case .disconnected = event {
        state.withLock { $0.closed = true }
        return false
      }
    }
    return true
  }

  /// Feeds received frames to the link and adds what is due: polls, resends, a clock query, a
  /// heartbeat. Runs with the state locked (inside the wire's order).
  private func process(_ frames: [WireFrame], state: inout State, receivedAt: Double?, queries: Bool) -> Pass {
    var pass = Pass()
    if state.closed {
      pass.stop = true
      return pass
    }
    let t = now
    let output = state.link.receive(frames, now: t)
    pass.outgoing += output.bytes
    for event in output.events {
      switch event {
      case .peerRestarted:
        // The board's clock may have started again at 0 (§6.9): the old fit means nothing, and
        // answers to queries asked before the reset would feed it the old clock.
        if let sync = state.sync { state.sync = ClockSync(clockFrequency: sync.clockFrequency) }
        state.pendingQueries.removeAll()
        pass.events.append(.boardReset)
      case .linkLost: pass.events.append(.disconnected("the board stopped answering (link lost)"))
      case .versionMismatch(let version): pass.events.append(.disconnected("the board speaks protocol version \(version)"))
      }
    }
    for frame in output.frames {
      guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
      if case .clock(let id, let ticks) = message, let sent = state.pendingQueries.removeValue(forKey: id) {
        state.sync?.add(hostSend: sent, hostReceive: min(receivedAt ?? t, t), boardTicks: ticks)
        continue
      }
      if case .resetNotice = message { pass.events.append(.boardReset) }
      pass.messages.append(message)
    }
    pass.outgoing += state.link.poll(now: t).bytes
    if queries { pass.outgoing += clockQuery(&state, at: t) }
    // Heartbeat after half the watchdog without traffic, when nothing is in flight (then polls
    // and resends feed the watchdog; a heartbeat would wait behind them) and the board may have
    // drive to stop.
    if !state.closing && t - state.lastSent >= configuration.watchdog * Self.heartbeatShare && state.link.unacknowledged == 0
      && armed(state, at: t)
    {
      pass.outgoing += state.link.send(.heartbeat, now: t)
      state.lastSent = t
    }
    return pass
  }

  /// A clock query, if one is due (quickly while synchronising, then about once a second):
  /// its bytes, with the query recorded as sent at `t`.
  func clockQuery(_ state: inout State, at t: Double) -> [UInt8] {
    guard !state.closing, !state.closed, let query = clockQueryWindow(state), t >= query.earliest,
      state.pendingQueries.isEmpty || t - state.lastClockQuery > 1
    else { return [] }
    state.pendingQueries = [state.nextQuery: t]
    let bytes = state.link.send(.clockQuery(id: state.nextQuery), now: t)
    state.nextQuery &+= 1
    state.lastClockQuery = t
    state.lastSent = t
    return bytes
  }

  /// Sends a clock query if one is due (a reactor's reader, as its thread goes back to waiting:
  /// the answer is then read when it comes, not behind other boards' work).
  func sendDueClockQuery() {
    try? wireOrder.withLock { () throws(TransportError) in
      let bytes = state.withLock { state in clockQuery(&state, at: now) }
      if !bytes.isEmpty { try transport.write(bytes) }
    }
  }

  /// How long the reader may block: until the next thing it must do itself (a heartbeat, a
  /// clock query, a retransmission, at least 1 ms). While frames are unacknowledged, or over a
  /// transport whose reads a send cannot interrupt, at most ``busyReadLimit``; otherwise up to
  /// ``idleReadLimit``: an idle served board then costs a wake-up a second instead of fifty
  /// (measured: 52 wake-ups/s and 0.4 % of a core per board), and a streaming board one per
  /// acknowledgement (a cap of 20 ms woke it once more per refill at 22 ms: a third of its
  /// reader's wake-ups). Sends from other threads write directly and never wait for it; one
  /// made while it waits past ``busyReadLimit`` wakes it (``send(contentsOf:)``).
  private func readTimeout() -> Double {
    let window = readerWindow()
    return window.latest - window.now
  }

  /// The reader's next duty in connection seconds: `latest` as ``readTimeout()`` explains, and
  /// `earliest`, from when a wake for anything else serves it too (a clock query due within
  /// ``clockQueryEarliness(_:)``); `now`, when it was read. Records `latest` as
  /// ``State/readerWakesAt``.
  func readerWindow() -> (now: Double, earliest: Double, latest: Double) {
    state.withLock { state in
      let t = now
      var due =
        state.link.unacknowledged > 0 ? t + Self.busyReadLimit
        : armed(state, at: t) ? state.lastSent + configuration.watchdog * Self.heartbeatShare : t + Self.idleReadLimit
      var earliest = Double.infinity
      if let query = clockQueryWindow(state) {
        due = min(due, query.latest)
        earliest = query.earliest
      }
      if let deadline = state.link.nextDeadline { due = min(due, deadline) }
      let waitsLong = state.link.unacknowledged == 0 && transport.interruptsReads && !state.closing
      let latest = t + min(max(due - t, 0.001), waitsLong ? Self.idleReadLimit : Self.busyReadLimit)
      state.readerWakesAt = latest
      return (t, min(max(earliest, t + 0.001), latest), latest)
    }
  }

  /// The share of the watchdog time without traffic after which a heartbeat goes out
  /// (docs/protocol.md §6.7). Half: a lost heartbeat is polled for (a few milliseconds) and
  /// resent within the other half. A quarter sent one between any two refills 40 ms apart (the
  /// engine's chunks on its default 80 ms lookahead): two more wake-ups per refill.
  static let heartbeatShare = 0.5

  /// The longest wait for input while the board is busy, or over a transport that cannot be
  /// interrupted, seconds.
  static let busyReadLimit = 0.020
  /// The longest wait on an idle board over an interruptible transport, seconds.
  static let idleReadLimit = 1.0

  /// When the next clock query goes out (nil without clock sync): quickly while synchronising,
  /// then about once a second, once nothing of the host's is unacknowledged and its bytes have
  /// left the wire — at most ``Configuration/clockIdleWait`` later (with frames unacknowledged,
  /// their ack wakes the reader before that). `latest` is when it is due; from `earliest`, up to
  /// ``clockQueryEarliness(_:)`` sooner, it goes with any wake-up that finds the line idle (an
  /// acknowledgement's): a rig's boards asked ten times a second, each query a wake-up of its
  /// own and its answer another, a third of the readers' wake-ups.
  private func clockQueryWindow(_ state: State) -> (earliest: Double, latest: Double)? {
    guard let sync = state.sync else { return nil }
    let interval = queryInterval(for: sync)
    let latest = state.lastClockQuery + interval + configuration.clockIdleWait
    guard state.link.unacknowledged == 0 else { return (latest, latest) }
    let due = min(max(state.lastClockQuery + interval, state.link.wireFreeAt), latest)
    let earliest = max(state.lastClockQuery + interval - Self.clockQueryEarliness(interval), state.link.wireFreeAt)
    return (min(earliest, due), due)
  }

  /// The interval between clock queries that `sync` calls for: ``Configuration/clockStartInterval``
  /// until synchronised, then ``Configuration/clockInterval``, or
  /// ``Configuration/clockSettledInterval`` once the fit has ``settledSamples`` round trips and
  /// its fastest is within ``settledRoundTrip``.
  func queryInterval(for sync: ClockSync) -> Double { Self.queryInterval(for: sync, configuration) }

  /// ``queryInterval(for:)`` under `configuration`.
  static func queryInterval(for sync: ClockSync, _ configuration: Configuration) -> Double {
    guard sync.isSynchronized else { return configuration.clockStartInterval }
    guard let settled = configuration.clockSettledInterval, sync.sampleCount >= Self.settledSamples,
      let fastest = sync.minimumRoundTrip, fastest <= Self.settledRoundTrip
    else { return configuration.clockInterval }
    return max(settled, configuration.clockInterval)
  }

  /// Round trips before a fit may count as settled (``Configuration/clockSettledInterval``).
  public static let settledSamples = 64
  /// The longest fastest round trip at which a fit may count as settled, seconds
  /// (``Configuration/clockSettledInterval``). A reading pins the board's clock within half its
  /// round trip: within 0.125 ms here, a quarter of a rig's 0.5 ms skew budget, so a few
  /// readings a second hold it. Behind a slower line (a UART at 500 000 baud: about 1 ms; a
  /// network: several) each reading says less, and more of them are averaged.
  public static let settledRoundTrip = 0.25e-3

  /// How much sooner than its interval a clock query may go with another wake-up: half the
  /// interval, at most 40 ms (a refill's period on the engine's default lookahead, so one of
  /// its acknowledgements falls in the window).
  static func clockQueryEarliness(_ interval: Double) -> Double { min(interval / 2, 0.040) }

  /// Closes after a failure of the port or the link; tells `onEvent` once. `cause`: the port's
  /// failure, which a send made from now on throws (``State/failure``).
  func finish(_ event: Event, cause: TransportError? = nil) {
    let wasOpen = state.withLock { state -> Bool in
      defer { state.closed = true }
      if !state.closed, state.failure == nil { state.failure = cause }
      return !state.closed
    }
    if wasOpen { onEvent(event) }
  }
}
