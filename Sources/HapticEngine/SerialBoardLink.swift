import Foundation
import HapticCore
public import HapticRenderer
import HapticTransport
public import HapticWire

/// A board link over a serial port or pseudo-terminal: probes the board (haptics refused when
/// unsupported), then keeps a `HapticTransport.BoardConnection` (reliable link, heartbeats,
/// clock sync, stop on close).
public final class SerialBoardLink: BoardLink, @unchecked Sendable {
  public let capabilities: BoardCapabilities
  public let profile: BoardProfile
  /// The port's path.
  public let port: String
  /// The link's baud rate.
  public let baud: Int
  private let connection: BoardConnection
  private let lock = NSLock()
  private var eventHandler: (@Sendable (BoardLinkEvent) -> Void)?
  private var messageHandler: (@Sendable (WireMessage) -> Void)?

  /// Opens `port`, probes the board and connects.
  ///
  /// - Throws: ``HapticEngineError`` `serverInitFailed` when the port cannot be opened or the
  ///   board does not answer, `notSupported` when the probe says the board cannot play haptics.
  ///   - profileFor: the renderer profile for the probed board (e.g. from its board file);
  ///     `nil` falls back to ``HapticRenderer/BoardProfile/init(capabilities:)``.
  public init(
    port: String, baud: Int = 115_200, probeTimeout: Double = 2,
    profileFor: @Sendable (BoardCapabilities) -> BoardProfile? = { _ in nil }
  ) throws(HapticEngineError) {
    self.port = port
    self.baud = baud
    let transport: any ByteTransport
    do {
      transport = try Transports.open(path: port, baud: baud)
    } catch {
      throw HapticEngineError(.serverInitFailed, error.description)
    }
    // One session for the port: the connection continues the probe's link, so no ack the board
    // meant for the probe can be taken for a new session's (docs/protocol.md §4.5). Timers count
    // from when a frame has left the wire (§4.3).
    let origin = MonotonicTime.seconds()
    var link = ReliableLink.host(
      configuration: ReliableLink.Configuration(bytePeriod: ReliableLink.Configuration.bytePeriod(baud: baud)))
    let result: ProbeResult
    do {
      result = try Prober(timeout: probeTimeout, clockSamples: 0).probe(transport, link: &link) {
        MonotonicTime.seconds() - origin
      }
    } catch {
      transport.close()
      throw HapticEngineError(.serverInitFailed, error.description)
    }
    guard result.supportsHaptics, let capabilities = result.capabilities else {
      transport.close()
      throw HapticEngineError(.notSupported, "\(port): haptics not supported: \(result.reason ?? "unknown reason")")
    }
    self.capabilities = capabilities
    profile = profileFor(capabilities) ?? BoardProfile(capabilities: capabilities)
    var configuration = BoardConnection.Configuration()
    configuration.watchdog = Double(capabilities.watchdogMilliseconds) / 1000
    let box = HandlerBox()
    connection = BoardConnection(
      transport: transport, clockFrequency: Double(capabilities.clockFrequency), configuration: configuration,
      continuing: link, origin: origin,
      onMessage: { message in box.message?(message) },
      onEvent: { event in
        switch event {
        case .boardReset: box.event?(.boardReset)
        case .disconnected(let reason): box.event?(.disconnected(reason))
        }
      })
    box.owner = self
  }

  /// Forwards the connection's callbacks to the handlers registered later.
  private final class HandlerBox: @unchecked Sendable {
    weak var owner: SerialBoardLink?
    var message: (@Sendable (WireMessage) -> Void)? { owner?.lock.withLock { owner?.messageHandler } }
    var event: (@Sendable (BoardLinkEvent) -> Void)? { owner?.lock.withLock { owner?.eventHandler } }
  }

  public var hostNow: Double { connection.now }

  public func boardSeconds(atHost t: Double) -> Double? {
    guard let sync = connection.clockSync, sync.isSynchronized else { return nil }
    return sync.boardSeconds(atHost: t)
  }

  /// Two 40-byte frames at the link's rate (10 bits a byte), plus the clock uncertainty.
  public var minimumLead: Double { 2 * 40 * 10 / Double(baud) + clockUncertainty }

  public var clockUncertainty: Double {
    (connection.clockSync?.minimumRoundTrip).map { $0 / 2 } ?? 0.001
  }

  public func send(_ message: WireMessage) throws(HapticEngineError) {
    do {
      try connection.send(message)
    } catch {
      throw HapticEngineError(.serverInterrupted, error.description)
    }
  }

  public func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) {
    lock.withLock { eventHandler = handler }
  }

  public func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) {
    lock.withLock { messageHandler = handler }
  }

  public var statistics: BoardLinkStatistics {
    let counters = connection.statistics
    let timing = connection.timing
    return BoardLinkStatistics(
      bytesSent: counters.bytesSent, retransmissions: counters.retransmissions, recoveries: counters.recoveries,
      roundTrip: timing.roundTrip, deliveryDelay: timing.delivery,
      retransmitTimeout: timing.retransmitTimeout)
  }

  public func close(stopDrive: Bool) {
    connection.close(stopDrive: stopDrive)
  }
}
