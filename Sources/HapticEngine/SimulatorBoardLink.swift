import Foundation
import HapticCore
import HapticTransport
public import HapticRenderer
public import HapticSimulator
public import HapticWire

/// A board link to the in-process simulator, through the real protocol (frames, reliable link,
/// acknowledgements), on a virtual clock (tests: time moves only with ``advance(to:)``) or in
/// real time (a thread runs the board, as `hapticctl send --sim` does).
public final class SimulatorBoardLink: BoardLink, @unchecked Sendable {
  /// How the simulated board's time passes.
  public enum Clock: Sendable {
    /// Only ``SimulatorBoardLink/advance(to:)`` moves time: deterministic, as fast as the CPU.
    case virtual
    /// Wall-clock time on a background thread.
    case realTime
  }

  public let capabilities: BoardCapabilities
  public let profile: BoardProfile
  private let clock: Clock
  /// True for a virtual-clock link (time moves only with ``advance(to:)``).
  public var isVirtual: Bool { clock == .virtual }
  private let lock = NSLock()
  private var board: SimulatedBoard
  private var host: ReliableLink
  private var decoder: FrameDecoder
  private var virtualNow = 0.0
  private let started = MonotonicTime.seconds()
  private var lastSent = 0.0
  private var closed = false
  /// Reset notices the board answered a send with, handed on at the next step: a link never
  /// reports a reset from inside `send` (the engine's sender holds the board's order there,
  /// and the reset handler may start the engine and send again).
  private var deferredResets = 0
  private var thread: Thread?
  private var eventHandler: (@Sendable (BoardLinkEvent) -> Void)?
  private var messageHandler: (@Sendable (WireMessage) -> Void)?

  /// Boots a simulated board and identifies it.
  public init(configuration: SimulatorConfiguration, clock: Clock, logsDrive: Bool = false) throws(HapticEngineError) {
    if let problem = configuration.problem {
      throw HapticEngineError(.serverInitFailed, "simulated \(configuration.profile.id): \(problem)")
    }
    self.clock = clock
    var board = SimulatedBoard(configuration: configuration)
    board.logsDrive = logsDrive
    profile = configuration.profile
    // Identify through the protocol, as a probe would (answers arrive at once in process); the
    // capabilities are the board's answer.
    var host = ReliableLink(session: 0x3C)
    var decoder = FrameDecoder()
    let answer = host.receive(decoder.feed(board.receive(host.send(.identify, now: 0))), now: 0)
    _ = board.receive(answer.bytes)  // the host's acknowledgements
    self.board = board
    self.host = host
    self.decoder = decoder
    let announced = answer.frames.lazy.compactMap { try? WireMessage.decode(type: $0.type, payload: $0.payload) }
      .compactMap { message -> BoardCapabilities? in
        if case .capabilities(let capabilities) = message { return capabilities } else { return nil }
      }.first
    guard let announced else {
      throw HapticEngineError(.serverInitFailed, "the simulated board did not answer identify")
    }
    capabilities = announced
    if !announced.channels.contains(where: { $0.kind != .none }) {
      throw HapticEngineError(.notSupported, "simulated \(configuration.profile.id): no actuator reported")
    }
    if clock == .realTime {
      let thread = Thread { [self] in self.run() }
      thread.name = "SimulatorBoardLink"
      self.thread = thread
      thread.start()
    }
  }

  public var hostNow: Double {
    switch clock {
    case .virtual: return lock.withLock { virtualNow }
    case .realTime: return elapsed()
    }
  }

  private func elapsed() -> Double {
    MonotonicTime.seconds() - started
  }

  public func boardSeconds(atHost t: Double) -> Double? {
    lock.withLock { Double(board.boardTicks(at: t)) } / Double(capabilities.clockFrequency)
  }

  /// The in-process board's clock is known exactly.
  public var clockUncertainty: Double { 0 }

  /// Messages reach the in-process board at once; in real time, though, the thread that
  /// rendered a batch can be preempted before it hands the batch over, and the board's clock
  /// runs on meanwhile: a start rendered 2 ms ahead arrived after its frame (a late segment) in
  /// 1 of 14 full test-suite runs on a 2-core machine. So a real-time link asks for 5 ms; on a
  /// virtual clock nothing runs between the two, and no lead is needed.
  public var minimumLead: Double { clock == .virtual ? 0 : Self.realTimeLead }

  /// The lead a real-time in-process link asks for, seconds.
  static let realTimeLead = 0.005

  public func send(_ message: WireMessage) throws(HapticEngineError) {
    let (messages, isClosed) = lock.withLock { () -> ([WireMessage], Bool) in
      guard !closed else { return ([], true) }
      let now = clock == .virtual ? virtualNow : elapsed()
      lastSent = now
      return (exchange(host.send(message, now: now), at: now), false)
    }
    if isClosed { throw HapticEngineError(.serverInterrupted, "the simulated board link is closed") }
    deliver(messages, inSend: true)
  }

  public func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) {
    lock.withLock { eventHandler = handler }
  }

  public func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) {
    lock.withLock { messageHandler = handler }
  }

  public var statistics: BoardLinkStatistics {
    let now = hostNow
    return lock.withLock {
      BoardLinkStatistics(
        bytesSent: host.statistics.bytesSent, retransmissions: host.statistics.retransmissions,
        recoveries: host.statistics.recoveries, roundTrip: host.smoothedRTT,
        deliveryDelay: host.deliveryDelay.value(at: now), retransmitTimeout: host.retransmitTimeout)
    }
  }

  /// A copy of the simulated board now (drive log, counters, physics).
  public var snapshot: SimulatedBoard { lock.withLock { board } }

  /// Virtual clock: runs the board (and the host side of the link: acknowledgements,
  /// heartbeats) up to host time `t`. In real time the board's thread does that; ignored.
  public func advance(to t: Double) {
    guard clock == .virtual else { return }
    let messages = lock.withLock { () -> [WireMessage] in
      virtualNow = max(virtualNow, t)
      return step(at: virtualNow)
    }
    deliver(messages)
  }

  /// Simulates a board reset (brown-out) now.
  public func resetBoard() {
    let messages = lock.withLock { () -> [WireMessage] in
      board.reset(cause: .brownOut)
      return step(at: clock == .virtual ? virtualNow : elapsed())
    }
    deliver(messages)
  }

  /// Simulates an unplugged cable: the link reports a disconnect and refuses to send.
  public func disconnect() {
    let handler = lock.withLock { () -> (@Sendable (BoardLinkEvent) -> Void)? in
      closed = true
      return eventHandler
    }
    handler?(.disconnected("the simulated board was disconnected"))
  }

  public func close(stopDrive: Bool) {
    if stopDrive { try? send(.stop(channels: 0xFF)) }
    lock.withLock { closed = true }
    if let thread, Thread.current != thread {
      while !thread.isFinished { usleep(200) }
    }
  }

  private func run() {
    while !lock.withLock({ closed }) {
      // Board time runs on in 2 ms steps (exchanges with the host happen at once, on send).
      usleep(2_000)
      let messages = lock.withLock { step(at: elapsed()) }
      deliver(messages)
    }
  }

  /// Board time passes to `now`; heartbeats keep the watchdog quiet while the link is open.
  private func step(at now: Double) -> [WireMessage] {
    var messages = receive(board.advance(to: now), at: now)
    let poll = host.poll(now: now).bytes
    if !poll.isEmpty { messages += exchange(poll, at: now) }
    if !closed && now - lastSent >= 0.020 {
      lastSent = now
      messages += exchange(host.send(.heartbeat, now: now), at: now)
    }
    return messages
  }

  /// Host bytes reach the board at `now`; returns the messages the board sent back.
  private func exchange(_ bytes: [UInt8], at now: Double) -> [WireMessage] {
    var messages = receive(board.advance(to: now), at: now)
    if !bytes.isEmpty { messages += receive(board.receive(bytes), at: now) }
    return messages
  }

  private func receive(_ bytes: [UInt8], at now: Double) -> [WireMessage] {
    guard !bytes.isEmpty else { return [] }
    let output = host.receive(decoder.feed(bytes), now: now)
    var messages: [WireMessage] = []
    for frame in output.frames {
      if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) { messages.append(message) }
    }
    if !output.bytes.isEmpty { messages += receive(board.receive(output.bytes), at: now) }
    return messages
  }

  private func deliver(_ messages: [WireMessage], inSend: Bool = false) {
    let (events, handler, resets) = lock.withLock { () -> ((@Sendable (BoardLinkEvent) -> Void)?, (@Sendable (WireMessage) -> Void)?, Int) in
      if inSend {
        deferredResets += messages.count { if case .resetNotice = $0 { true } else { false } }
        return (eventHandler, messageHandler, 0)
      }
      defer { deferredResets = 0 }
      return (eventHandler, messageHandler, deferredResets)
    }
    for _ in 0..<resets { events?(.boardReset) }
    for message in messages {
      if case .resetNotice = message {
        if !inSend { events?(.boardReset) }
      } else {
        handler?(message)
      }
    }
  }
}
