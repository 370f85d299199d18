import HapticCore
public import HapticEngine
import HapticLocks
public import HapticRenderer
import HapticSimulator
public import HapticWire

/// A board link with a simulated picture of the board behind it: every message the host sends
/// goes to the board, and what it plays (segment batches, stops) also to a ``SimulatedBoard``
/// kept at the board's clock, whose queues and actuator physics then tell what the real board
/// drives and how the actuator moves — the server's 200 Hz stream of a serial board (docs/api.yaml
/// `Stream`). The physics runs only while someone samples (``channelsNow``); otherwise the
/// picture's time jumps with the board's clock and only its queues follow.
public final class MirroredBoardLink: BoardLink, Sendable {
  private let inner: any BoardLink
  private let mirror: Locked<Mirror>

  /// The picture and when it was last sampled.
  private struct Mirror: Sendable {
    var board: SimulatedBoard
    /// Host seconds of the last ``channelsNow``, if any.
    var sampled: Double?
  }

  /// Samples this recent keep the physics running between them, seconds; after a longer pause
  /// the picture jumps.
  static let samplingGap = 0.1

  /// Mirrors `link`'s board: its profile's actuators, its clock rate, a queue it cannot fill.
  public init(_ link: any BoardLink) {
    inner = link
    mirror = Locked(Mirror(board: SimulatedBoard(configuration: Self.configuration(for: link)), sampled: nil))
  }

  static func configuration(for link: any BoardLink) -> SimulatorConfiguration {
    var configuration = SimulatorConfiguration(profile: link.profile)
    configuration.clockFrequency = link.capabilities.clockFrequency
    configuration.queueDepth = Int(UInt16.max)
    // Heartbeats are not mirrored: the board's own watchdog is reported from its status.
    configuration.watchdog = 5
    return configuration
  }

  /// Each channel now as the picture has it: the vibration's amplitude (G) and the drive
  /// (level as a fraction of full scale, Hz). Runs the physics up to the board's clock now.
  public var channelsNow: [(envelope: Double, level: Double, frequency: Double)] {
    let now = inner.hostNow
    let boardNow = inner.boardSeconds(atHost: now)
    return mirror.withLock { mirror in
      if let boardNow { catchUp(&mirror, to: boardNow, simulate: true) }
      mirror.sampled = now
      return zip(mirror.board.envelopes, mirror.board.currentDrive).map { ($0, $1.level, $1.frequency) }
    }
  }

  /// Brings the picture to board second `t`: with physics, or (nobody sampling lately, or a
  /// long gap) by a jump. A board clock that went back (the board restarted) starts a new picture.
  private func catchUp(_ mirror: inout Mirror, to t: Double, simulate: Bool) {
    if t < mirror.board.time - 0.5 {
      mirror.board = SimulatedBoard(configuration: mirror.board.configuration)
    }
    if simulate && t - mirror.board.time < Self.samplingGap {
      _ = mirror.board.advance(to: t)
    } else {
      mirror.board.skip(to: t)
    }
  }

  public func send(_ message: WireMessage) throws(HapticEngineError) {
    try send(contentsOf: [message])
  }

  public func send(contentsOf messages: [WireMessage]) throws(HapticEngineError) {
    try inner.send(contentsOf: messages)
    let drive = messages.filter {
      switch $0 {
      case .queueSegments, .replaceSegments, .stop: true
      default: false
      }
    }
    guard !drive.isEmpty else { return }
    let now = inner.hostNow
    guard let boardNow = inner.boardSeconds(atHost: now) else { return }
    mirror.withLock { mirror in
      let sampling = mirror.sampled.map { now - $0 < Self.samplingGap } ?? false
      catchUp(&mirror, to: boardNow, simulate: sampling)
      for message in drive { mirror.board.mirror(message) }
    }
  }

  public var capabilities: BoardCapabilities { inner.capabilities }
  public var profile: BoardProfile { inner.profile }
  public var hostNow: Double { inner.hostNow }
  public func boardSeconds(atHost t: Double) -> Double? { inner.boardSeconds(atHost: t) }
  public var clockUncertainty: Double { inner.clockUncertainty }
  public var minimumLead: Double { inner.minimumLead }
  public var handlingLead: Double { inner.handlingLead }
  public var wireBacklog: Double { inner.wireBacklog }
  public var secondsPerByte: Double { inner.secondsPerByte }
  public func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) { inner.setEventHandler(handler) }
  public func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) { inner.setMessageHandler(handler) }
  public var statistics: BoardLinkStatistics { inner.statistics }
  public func close(stopDrive: Bool) { inner.close(stopDrive: stopDrive) }
  public var isVirtual: Bool { inner.isVirtual }
  public func advance(to t: Double) { inner.advance(to: t) }
}
