import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import HapticLocks

@testable import HapticEngine

/// An engine on a virtual-clock simulator, with the board's drive log at hand.
struct EngineHarness {
  let link: SimulatorBoardLink
  let engine: HapticEngine

  init(
    profile: BoardProfile = .simLRA, driftPPM: Double = 0, clockOffset: Double = 0,
    configure: (inout HapticEngine.Configuration) -> Void = { _ in }
  ) throws {
    var board = SimulatorConfiguration(profile: profile)
    board.driftPPM = driftPPM
    board.clockOffset = clockOffset
    link = try SimulatorBoardLink(configuration: board, clock: .virtual, logsDrive: true)
    var configuration = HapticEngine.Configuration()
    configure(&configuration)
    engine = try HapticEngine(link: link, configuration: configuration)
    try engine.start()
  }

  /// Runs host time on by `seconds`.
  func run(_ seconds: Double) { engine.advance(to: link.hostNow + seconds) }

  /// The drive level at host time `t`.
  func level(at t: Double) -> Int {
    link.snapshot.driveLog.last { $0.time <= t + 1e-9 }?.level ?? 0
  }

  /// Host time of the first drive change after `t` matching `predicate`.
  func firstChange(after t: Double, where predicate: (SimulatedBoard.DriveChange) -> Bool) -> Double? {
    link.snapshot.driveLog.first { $0.time > t && predicate($0) }?.time
  }

  /// Host time of the first non-zero drive after `t`.
  func onset(after t: Double) -> Double? { firstChange(after: t) { $0.level != 0 } }

  /// Board seconds at host time `t`.
  func boardSeconds(_ t: Double) -> Double { link.boardSeconds(atHost: t) ?? 0 }

  static func continuous(_ duration: Double, intensity: Double = 1, sharpness: Double = 0.5, at time: Double = 0) -> HapticEvent {
    HapticEvent(
      .hapticContinuous, time: time, duration: duration,
      parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
  }

  static func transient(at time: Double, intensity: Double = 1) -> HapticEvent {
    HapticEvent(.hapticTransient, time: time, parameters: [EventParameter(.hapticIntensity, intensity)])
  }
}

/// Collects values from handlers on other threads.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// A board link that forwards to another, with what a test changes on the way: a wait before
/// each send, an extra lead, adjusted statistics. The link doubles of the engine tests
/// (``ThreadedBoard/delayed(_:delay:slowThread:)``, `ActionOrderTests`' slow delivery).
final class WrappedLink: BoardLink {
  let inner: any BoardLink
  let extraLead: Double
  let beforeSend: @Sendable () -> Void
  let adjust: @Sendable (inout BoardLinkStatistics) -> Void

  init(
    _ inner: any BoardLink, extraLead: Double = 0, beforeSend: @escaping @Sendable () -> Void = {},
    adjust: @escaping @Sendable (inout BoardLinkStatistics) -> Void = { _ in }
  ) {
    self.inner = inner
    self.extraLead = extraLead
    self.beforeSend = beforeSend
    self.adjust = adjust
  }

  var capabilities: BoardCapabilities { inner.capabilities }
  var profile: BoardProfile { inner.profile }
  var hostNow: Double { inner.hostNow }
  func boardSeconds(atHost t: Double) -> Double? { inner.boardSeconds(atHost: t) }
  var clockUncertainty: Double { inner.clockUncertainty }
  var minimumLead: Double { inner.minimumLead + extraLead }
  var handlingLead: Double { inner.handlingLead }
  var wireBacklog: Double { inner.wireBacklog }
  func send(_ message: WireMessage) throws(HapticEngineError) {
    beforeSend()
    try inner.send(message)
  }
  func setEventHandler(_ handler: @escaping @Sendable (BoardLinkEvent) -> Void) { inner.setEventHandler(handler) }
  func setMessageHandler(_ handler: @escaping @Sendable (WireMessage) -> Void) { inner.setMessageHandler(handler) }
  var statistics: BoardLinkStatistics {
    var statistics = inner.statistics
    adjust(&statistics)
    return statistics
  }
  func close(stopDrive: Bool) { inner.close(stopDrive: stopDrive) }
  var isVirtual: Bool { inner.isVirtual }
  func advance(to t: Double) { inner.advance(to: t) }
}
