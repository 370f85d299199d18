import Foundation
public import HapticTransport
public import HapticWire

/// A minimal board for tests: answers `identify` with configured capabilities and `clock query`
/// with a drifting clock, over any transport, on its own thread. It plays nothing (the simulator
/// is the full board); it exists to exercise the probe and the transports.
///
/// Unchecked: `running`, `thread`, `framesSeen` and `messages` are read and written only under
/// `lock`; the rest are `let`s.
public final class ScriptedBoard: @unchecked Sendable {
  /// How the board behaves.
  public enum Behaviour: Sendable {
    /// Answer normally.
    case normal
    /// Never answer.
    case silent
    /// Speak another protocol major version.
    case version(UInt8)
  }

  private let transport: any ByteTransport
  private let capabilities: BoardCapabilities
  private let behaviour: Behaviour
  private let driftPPM: Double
  private let lock = NSLock()
  private var running = true
  private var thread: Thread?
  private var framesSeen = 0
  private var messages: [WireMessage] = []
  private var silenced = false

  /// Starts a board on `transport`.
  public init(
    transport: any ByteTransport, capabilities: BoardCapabilities, behaviour: Behaviour = .normal,
    driftPPM: Double = 0
  ) {
    self.transport = transport
    self.capabilities = capabilities
    self.behaviour = behaviour
    self.driftPPM = driftPPM
    let thread = Thread { [self] in self.run() }
    thread.name = "ScriptedBoard"
    self.thread = thread
    thread.start()
  }

  /// A typical LRA board's capabilities (sim-lra-like).
  public static func lraCapabilities(actuator: BoardCapabilities.ActuatorKind = .lra) -> BoardCapabilities {
    BoardCapabilities(
      firmwareName: "scripted-board", firmwareVersion: "0.1.0", boardID: "sim-lra", bootCount: 1,
      clockFrequency: 1_000_000, framePeriodMicroseconds: 1000, queueDepth: 64, watchdogMilliseconds: 100,
      features: [.braking, .overdrive, .frequencyControl, .signedLevels],
      channels: [.init(kind: actuator, resonantFrequency: 170, qualityFactor: 11, frequencyRange: 80...300, amplitudeBits: 8, calibration: .notApplicable)])
  }

  /// Frames the board has received.
  public var received: Int { lock.withLock { framesSeen } }

  /// Messages delivered to the board, in order.
  public var receivedMessages: [WireMessage] { lock.withLock { messages } }

  /// From now on the board counts the frames it receives but answers nothing, acknowledgements
  /// included (a board that hung, or a line that went dead one way).
  public func silence() {
    lock.withLock { silenced = true }
  }

  /// Stops the board thread (the transport stays open).
  public func stop() {
    lock.withLock { running = false }
    while thread?.isFinished == false { usleep(1000) }
  }

  private var isRunning: Bool { lock.withLock { running } }

  private func run() {
    let start = Date()
    func now() -> Double { Date().timeIntervalSince(start) }
    var link = ReliableLink(session: 0x42)
    var decoder = FrameDecoder()
    while isRunning {
      guard let bytes = try? transport.read(timeout: 0.005) else { return }
      let frames = decoder.feed(bytes)
      let silenced = lock.withLock {
        framesSeen += frames.count
        return self.silenced
      }
      if case .silent = behaviour { continue }
      if silenced { continue }
      if case .version(let version) = behaviour {
        for _ in frames {
          let reply = WireFrame(
            version: version, flags: [], session: 0x42, seq: 0, ack: 0, type: WireMessage.Kind.error.rawValue,
            payload: WireMessage.error(ProtocolError(code: .unsupportedVersion, messageType: 1, detail: UInt16(version))).payload())
          try? transport.write(reply.encoded())
        }
        continue
      }
      let output = link.receive(frames, now: now())
      var reply = output.bytes
      for frame in output.frames {
        guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
        lock.withLock { messages.append(message) }
        switch message {
        case .identify:
          reply += link.send(.capabilities(capabilities), now: now())
        case .clockQuery(let id):
          let ticks = UInt64((5.0 + now() * (1 + driftPPM * 1e-6)) * Double(capabilities.clockFrequency))
          reply += link.send(.clock(id: id, boardTime: ticks), now: now())
        default:
          break
        }
      }
      reply += link.poll(now: now()).bytes
      if !reply.isEmpty { try? transport.write(reply) }
    }
  }
}
