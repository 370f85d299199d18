import Foundation
import HapticCore
public import HapticRenderer
public import HapticTransport
import HapticLocks
public import HapticWire

/// A board link over a serial port or pseudo-terminal: probes the board (haptics refused when
/// unsupported), then keeps a `HapticTransport.BoardConnection` (reliable link, heartbeats,
/// clock sync, stop on close).
public final class SerialBoardLink: BoardLink, Sendable {
  public let capabilities: BoardCapabilities
  public let profile: BoardProfile
  /// Which physical board this is (docs/protocol.md §6.11).
  public let identity: BoardIdentity
  /// The port's path (the transport's name).
  public let port: String
  /// The line's rate the link's timers count with (the board's, as HapticTransport's `LineRates` found it).
  public let baud: Int
  private let connection: BoardConnection
  /// Host time the last segment batch was sent (``handlingLead``).
  private let lastDriveSent = Locked(-Double.infinity)
  /// The handlers, shared with the connection's callbacks from before its reader starts.
  private let handlers: HandlerBox

  /// Opens `port`, probes the board and connects.
  ///
  /// - Parameters:
  ///   - port: the serial port or pseudo-terminal path.
  ///   - rates: the rates the board may talk at, tried in turn (`.fixed(N)` for one); by
  ///     default the built-in boards' (HapticTransport's `LineRates.builtIn`).
  ///   - probeTimeout: how long the probe waits for the board, seconds.
  ///   - clockInterval: seconds between clock queries once synchronised (0.05–10; by default
  ///     about one a second, as Klipper). A rig asks more often: its boards' fits settle in a
  ///     second instead of several.
  ///   - clockSettledInterval: seconds between clock queries once the fit has settled on a
  ///     board behind a fast line (HapticTransport's `BoardConnection.Configuration.clockSettledInterval`;
  ///     nil: always `clockInterval`).
  ///   - reactor: the thread that reads the board, shared with other links (nil: a thread of
  ///     the link's own).
  ///   - profileFor: the renderer profile for the probed board and which physical board it is
  ///     (e.g. from its board file, with a calibration kept for it); `nil` falls back to
  ///     `BoardProfile(capabilities:)` (HapticWire).
  /// - Throws: ``HapticEngineError`` `serverInitFailed` when the port cannot be opened or the
  ///   board does not answer, `notSupported` when the probe says the board cannot play haptics.
  public convenience init(
    port: String, rates: LineRates = .builtIn, probeTimeout: Double = 2, clockInterval: Double? = nil,
    clockSettledInterval: Double? = nil, reactor: Reactor? = nil, profileFor: @Sendable (BoardCapabilities, BoardIdentity) -> BoardProfile? = { _, _ in nil }
  ) throws(HapticEngineError) {
    let transport: any ByteTransport
    do {
      transport = try Transports.open(path: port, baud: rates.candidates[0])
    } catch {
      throw HapticEngineError(.serverInitFailed, error.description)
    }
    try self.init(
      transport: transport, rates: rates, probeTimeout: probeTimeout, clockInterval: clockInterval,
      clockSettledInterval: clockSettledInterval, reactor: reactor, profileFor: profileFor)
  }

  /// Probes the board on an open `transport` (closed on failure, and by ``close(stopDrive:)``)
  /// and connects: a port opened elsewhere, or one wrapped (fault injection, tests).
  ///
  /// - Parameters:
  ///   - transport: the open port (at `rates`' first candidate); the link owns it from now on.
  ///   - rates: the rates the board may talk at, tried in turn; the one it answers at (on a
  ///     pseudo-terminal, its board file's) is the link's timers'.
  ///   - probeTimeout: how long the probe waits for the board, seconds.
  ///   - clockInterval: as for ``init(port:rates:probeTimeout:clockInterval:clockSettledInterval:reactor:profileFor:)``.
  ///   - clockSettledInterval: as there.
  ///   - reactor: as there.
  ///   - profileFor: the renderer profile for the probed board and its identity; `nil` falls
  ///     back to `BoardProfile(capabilities:)` (HapticWire).
  /// - Throws: as ``init(port:rates:probeTimeout:clockInterval:clockSettledInterval:reactor:profileFor:)``, but for opening the port.
  public init(
    transport: any ByteTransport, rates: LineRates = .builtIn, probeTimeout: Double = 2, clockInterval: Double? = nil,
    clockSettledInterval: Double? = nil, reactor: Reactor? = nil, profileFor: @Sendable (BoardCapabilities, BoardIdentity) -> BoardProfile? = { _, _ in nil }
  ) throws(HapticEngineError) {
    port = transport.name
    // One session for the port: the connection continues the probe's link, so no ack the board
    // meant for the probe can be taken for a new session's (docs/protocol.md §4.5). Timers count
    // from when a frame has left the wire (§4.3).
    let origin = MonotonicTime.seconds()
    let result: ProbeResult
    let link: ReliableLink
    do {
      let probe = try Prober(timeout: probeTimeout, clockSamples: 0).probe(transport, rates: rates) {
        MonotonicTime.seconds() - origin
      }
      (result, link) = (probe.result, probe.link)
    } catch {
      transport.close()
      throw HapticEngineError(.serverInitFailed, error.description)
    }
    guard result.supportsHaptics, let capabilities = result.capabilities else {
      transport.close()
      throw HapticEngineError(.notSupported, "\(port): haptics not supported: \(result.reason ?? "unknown reason")")
    }
    self.capabilities = capabilities
    baud = result.baud ?? rates.candidates[0]
    identity = result.identity
    profile = profileFor(capabilities, result.identity) ?? BoardProfile(capabilities: capabilities)
    var configuration = BoardConnection.Configuration()
    configuration.watchdog = Double(capabilities.watchdogMilliseconds) / 1000
    if let clockInterval { configuration.clockInterval = min(max(clockInterval, 0.05), 10) }
    configuration.clockSettledInterval = clockSettledInterval.map { min(max($0, 0.05), 10) }
    configuration.reactor = reactor
    configuration.ticksPerFrame =
      UInt64(capabilities.framePeriodMicroseconds) * UInt64(capabilities.clockFrequency) / 1_000_000
    let box = HandlerBox()
    handlers = box
    connection = BoardConnection(
      transport: transport, clockFrequency: Double(capabilities.clockFrequency), configuration: configuration,
      continuing: link, origin: origin,
      onMessage: { message in box.handlers.withLock { $0.message }?(message) },
      onEvent: { event in
        let handler = box.handlers.withLock { $0.event }
        switch event {
        case .boardReset: handler?(.boardReset)
        case .disconnected(let reason): handler?(.disconnected(reason))
        }
      })
  }

  /// The handlers registered after the connection started; its callbacks read them (a handler
  /// is called without the lock held).
  private final class HandlerBox: Sendable {
    struct Handlers {
      var message: (@Sendable (WireMessage) -> Void)?
      var event: (@Sendable (BoardLinkEvent) -> Void)?
    }
    let handlers = Locked(Handlers())
  }

  public var hostNow: Double { connection.now }

  public func boardSeconds(atHost t: Double) -> Double? {
    guard let sync = connection.clockSync, sync.isSynchronized else { return nil }
    return sync.boardSeconds(atHost: t)
  }

  /// The shortest message's transmission (a change's first message is packed to arrive in time
  /// behind this: ``HapticEngine`` `+Fitting`), the board's time to take it and the clock
  /// uncertainty. At 500 000 baud: 0.52 + 0.32 + 0.30 (1.0 while the board drives) + about
  /// 0.65 ms.
  public var minimumLead: Double { Double(Self.shortestMessage) * secondsPerByte + handlingLead + clockUncertainty }

  /// A segment batch's framing, header and one segment, bytes.
  static let shortestMessage = 26

  /// What may slip onto the wire ahead of a change (an acknowledgement or a clock query the
  /// reader writes between the change's reading of the wire and its own write), and the
  /// board's time to take a message: `boardHandling` while it drives (drive was sent within
  /// `drivingWindow`: refills, changes and the board's own work each frame compete with the
  /// message), `idleHandling` on a board at rest (a tap on a quiet board).
  public var handlingLead: Double {
    let driving = hostNow - lastDriveSent.withLock { $0 } < Self.drivingWindow
    return Double(Self.slip) * secondsPerByte + (driving ? Self.boardHandling : Self.idleHandling)
  }

  /// How long after drive was sent a board counts as driving: a playing board is sent a refill
  /// at least this often (the engine's longest sleep while playing).
  static let drivingWindow = 0.050

  /// Bytes the reader may write ahead of a change: a clock query or an acknowledgement.
  static let slip = 16

  /// The longest a board may leave a message that has arrived before it takes it: the Uno
  /// firmware's main loop stalls at most 1.0 ms at 500 000 baud (`make stream`), storing a
  /// long batch just received. Without it, at 500 000 baud, 3 of 40 sends to the emulated
  /// Uno + DRV2605L on a 2-core machine with one core kept busy had a late batch; with it, 0 of
  /// 40.
  static let boardHandling = 0.001

  /// The board's time to take a message when nothing it received before is still being stored:
  /// decoding runs as bytes arrive (the Uno firmware checks the CRC and unstuffs on the fly),
  /// so what is left is storing a short batch and the main loop's other work (a DRV2605L
  /// register write over I²C: 0.1 ms).
  static let idleHandling = 0.0003

  public var secondsPerByte: Double { 10 / Double(baud) }

  public var clockUncertainty: Double {
    (connection.clockSync?.minimumRoundTrip).map { $0 / 2 } ?? 0.001
  }

  public var wireBacklog: Double { connection.wireBacklog }

  public func send(_ message: WireMessage) throws(HapticEngineError) {
    try send(contentsOf: [message])
  }

  public func send(contentsOf messages: [WireMessage]) throws(HapticEngineError) {
    let drive = messages.contains {
      switch $0 {
      case .queueSegments, .replaceSegments: true
      default: false
      }
    }
    if drive { lastDriveSent.withLock { $0 = hostNow } }
    do {
      try connection.send(contentsOf: messages)
    } catch {
      throw HapticEngineError(.serverInterrupted, error.description)
    }
  }

  public func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) {
    handlers.handlers.withLock { $0.event = handler }
  }

  public func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) {
    handlers.handlers.withLock { $0.message = handler }
  }

  public var statistics: BoardLinkStatistics {
    let counters = connection.statistics
    let timing = connection.timing
    let sync = connection.clockSync
    var statistics = BoardLinkStatistics(
      bytesSent: counters.bytesSent, retransmissions: counters.retransmissions, recoveries: counters.recoveries,
      roundTrip: timing.roundTrip, deliveryDelay: timing.delivery,
      retransmitTimeout: timing.retransmitTimeout,
      driftPPM: sync.flatMap { $0.isSynchronized ? $0.driftPPM : nil },
      isProven: counters.bytesSent >= Self.provenBytes)
    statistics.clockResidual = sync?.residual
    statistics.clockRoundTrip = sync?.minimumRoundTrip
    statistics.clockQueryInterval = connection.clockQueryInterval
    return statistics
  }

  /// Bytes the host must have sent before a link that lost none of them counts as clean. At 1 %
  /// byte loss 500 bytes all arrive 0.7 % of the time; a new link's handshake (probe and clock
  /// sync) far more often: a `send` over `sim serve --drop 0.01` whose handshake lost nothing
  /// was treated as clean, its first batch went out one lookahead (30 ms) before its start, was
  /// lost, and came 9 ms late (1 run in 23–40; docs/protocol.md §8).
  public static let provenBytes = 500

  public func close(stopDrive: Bool) {
    connection.close(stopDrive: stopDrive)
  }
}
