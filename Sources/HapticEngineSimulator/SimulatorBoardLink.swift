import Foundation
import HapticCore
public import HapticEngine
import HapticLocks
import HapticTransport
public import HapticRenderer
public import HapticSimulator
public import HapticWire

/// A board link to the in-process simulator, through the real protocol (frames, reliable link,
/// acknowledgements), on a virtual clock (tests: time moves only with ``advance(to:)``) or in
/// real time (a thread runs the board, as `hapticctl send --sim` does).
public final class SimulatorBoardLink: BoardLink, Sendable {
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
  private let started = MonotonicTime.seconds()
  private let state: Locked<State>

  /// What the link's callers and its board thread share.
  private struct State: Sendable {
    var wire: SimulatedWire
    var virtualNow = 0.0
    /// Reset notices the board answered a send with, handed on at the next step: a link never
    /// reports a reset from inside `send` (the engine's sender holds the board's order there,
    /// and the reset handler may start the engine and send again).
    var deferredResets = 0
    var eventHandler: (@Sendable (BoardLinkEvent) -> Void)?
    var messageHandler: (@Sendable (WireMessage) -> Void)?
    /// The real-time board thread, while it runs, and whether it has ended (after `close`).
    var runThread: UInt?
    var runEnded = false
  }

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
    state = Locked(State(wire: SimulatedWire(board: board, host: host, decoder: decoder)))
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
      thread.start()
    } else {
      state.withLock { $0.runEnded = true }
    }
  }

  public var hostNow: Double {
    switch clock {
    case .virtual: return state.withLock { $0.virtualNow }
    case .realTime: return elapsed()
    }
  }

  private func elapsed() -> Double {
    MonotonicTime.seconds() - started
  }

  public func boardSeconds(atHost t: Double) -> Double? {
    state.withLock { Double($0.wire.board.boardTicks(at: t)) } / Double(capabilities.clockFrequency)
  }

  /// The in-process board's clock is known exactly.
  public var clockUncertainty: Double { 0 }

  /// Messages reach the in-process board at once; in real time, though, the thread that
  /// rendered a batch can be preempted before it hands the batch over, and the board's clock
  /// runs on meanwhile: a start rendered 2 ms ahead arrived after its frame (a late segment) in
  /// 1 of 14 full test-suite runs on a 2-core machine. So a real-time link asks for 4 ms (a
  /// least lead from the board's clock now: the 5 ms it asked while the guard counted from the
  /// current frame's start left 4–5 ms); on a virtual clock nothing runs between the two, and no
  /// lead is needed.
  public var minimumLead: Double { clock == .virtual ? 0 : Self.realTimeLead }

  /// The lead a real-time in-process link asks for, seconds.
  static let realTimeLead = 0.004

  public func send(_ message: WireMessage) throws(HapticEngineError) {
    let now = clock == .virtual ? nil : elapsed()
    let messages = state.withLock { state -> [WireMessage]? in
      guard !state.wire.closed else { return nil }
      return state.wire.send(message, at: now ?? state.virtualNow)
    }
    guard let messages else { throw HapticEngineError(.serverInterrupted, "the simulated board link is closed") }
    deliver(messages, inSend: true)
  }

  public func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) {
    state.withLock { $0.eventHandler = handler }
  }

  public func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) {
    state.withLock { $0.messageHandler = handler }
  }

  public var statistics: BoardLinkStatistics {
    let now = hostNow
    return state.withLock { state in
      let host = state.wire.host
      return BoardLinkStatistics(
        bytesSent: host.statistics.bytesSent, retransmissions: host.statistics.retransmissions,
        recoveries: host.statistics.recoveries, roundTrip: host.smoothedRTT,
        deliveryDelay: host.deliveryDelay.value(at: now), retransmitTimeout: host.retransmitTimeout,
        // The in-process board's clock is known exactly (``clockUncertainty``).
        driftPPM: state.wire.board.configuration.driftPPM)
    }
  }

  /// Each channel now: its vibration's amplitude (G) and the drive it plays (level as a fraction
  /// of full scale, Hz), read without copying the board (a display samples it at 200 Hz).
  public var channelsNow: [(envelope: Double, level: Double, frequency: Double)] {
    state.withLock { state in
      let envelopes = state.wire.board.envelopes
      return zip(envelopes, state.wire.board.currentDrive).map { ($0, $1.level, $1.frequency) }
    }
  }

  /// A copy of the simulated board now (drive log, counters, physics).
  public var snapshot: SimulatedBoard { state.withLock { $0.wire.board } }

  /// Virtual clock: runs the board (and the host side of the link: acknowledgements,
  /// heartbeats) up to host time `t`. In real time the board's thread does that; ignored.
  public func advance(to t: Double) {
    guard clock == .virtual else { return }
    let messages = state.withLock { state -> [WireMessage] in
      state.virtualNow = max(state.virtualNow, t)
      return state.wire.step(at: state.virtualNow)
    }
    deliver(messages)
  }

  /// Simulates a board reset (brown-out) now.
  public func resetBoard() {
    let now = clock == .virtual ? nil : elapsed()
    let messages = state.withLock { state -> [WireMessage] in
      state.wire.board.reset(cause: .brownOut)
      return state.wire.step(at: now ?? state.virtualNow)
    }
    deliver(messages)
  }

  /// Simulates an unplugged cable: the link reports a disconnect and refuses to send.
  public func disconnect() {
    let handler = state.withLock { state -> (@Sendable (BoardLinkEvent) -> Void)? in
      state.wire.closed = true
      return state.eventHandler
    }
    handler?(.disconnected("the simulated board was disconnected"))
  }

  public func close(stopDrive: Bool) {
    if stopDrive { try? send(.stop(channels: 0xFF)) }
    state.withLock { $0.wire.closed = true }
    // The board thread ends within a step (unless this is it: a close from a handler it runs).
    let me = UInt(pthread_self())
    while !state.withLock({ $0.runEnded || $0.runThread == me }) { usleep(200) }
  }

  private func run() {
    state.withLock { $0.runThread = UInt(pthread_self()) }
    defer { state.withLock { $0.runEnded = true } }
    while !state.withLock({ $0.wire.closed }) {
      // Board time runs on in 2 ms steps (exchanges with the host happen at once, on send).
      usleep(2_000)
      let now = elapsed()
      let messages = state.withLock { $0.wire.step(at: now) }
      deliver(messages)
    }
  }

  private func deliver(_ messages: [WireMessage], inSend: Bool = false) {
    let (events, handler, resets) = state.withLock {
      state -> ((@Sendable (BoardLinkEvent) -> Void)?, (@Sendable (WireMessage) -> Void)?, Int) in
      if inSend {
        state.deferredResets += messages.count { if case .resetNotice = $0 { true } else { false } }
        return (state.eventHandler, state.messageHandler, 0)
      }
      defer { state.deferredResets = 0 }
      return (state.eventHandler, state.messageHandler, state.deferredResets)
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
