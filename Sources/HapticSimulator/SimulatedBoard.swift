public import HapticRenderer
public import HapticWire

/// The board side of docs/protocol.md as a deterministic state machine on a virtual clock.
///
/// Feed it the host's bytes with ``receive(_:)`` and move its time with ``advance(to:)``; both
/// return the bytes the board sends. Nothing here reads a wall clock, so the same inputs at the
/// same virtual times give the same bytes and the same drive and acceleration, every run.
/// ``SimulatorServer`` runs it in real time on a byte transport (a pseudo-terminal).
public struct SimulatedBoard: Sendable {
  /// A change of a channel's drive, logged when ``SimulatedBoard/logsDrive`` is on.
  public struct DriveChange: Sendable, Hashable {
    /// Virtual seconds since the simulation started.
    public var time: Double
    /// The channel.
    public var channel: Int
    /// The new level (signed; full scale = the profile's max level).
    public var level: Int
    /// The new drive frequency in Hz (0 = none).
    public var frequency: Int
  }

  /// Board counters beyond what `status` carries.
  public struct Counters: Sendable, Hashable {
    /// Frames that failed CRC or length checks.
    public var badFrames = 0
    /// Times the watchdog stopped the drive.
    public var watchdogStops = 0
    /// Messages handled.
    public var messages = 0
    /// Error replies sent.
    public var errors = 0
    /// Simulated resets.
    public var resets = 0
  }

  /// The configuration the board was built with.
  public let configuration: SimulatorConfiguration
  /// Virtual seconds since the simulation started.
  public private(set) var time = 0.0
  /// Record every drive change in ``driveLog``.
  public var logsDrive = false
  /// Drive changes so far (when ``logsDrive`` is on).
  public private(set) var driveLog: [DriveChange] = []
  /// Note underruns, late batches, watchdog stops, resets and bad frames for ``takeEvents()``.
  public var recordsEvents = false
  var events: [BoardEvent] = []
  /// Peak acceleration per channel since start, G.
  public private(set) var peakAcceleration: [Double]
  /// Counters.
  public internal(set) var counters = Counters()

  var link: ReliableLink
  /// The board's side of the link: what it delivered, dropped as out of order or duplicate,
  /// and the NAKs it sent (frames from the host that arrived out of order count here).
  public var linkStatistics: ReliableLink.Statistics { link.statistics }
  var decoder = FrameDecoder()
  var queues: [DriveQueue]
  var physics: [ActuatorPhysics]
  var levels: [Double]
  var frequencies: [Double]
  var bootCount: UInt16
  var bootTime = 0.0
  var watchdogTimeout: Double
  /// The watchdog stopped drive since the last status report (§6.7: latched until reported).
  var watchdogFired = false
  var lastValidFrame = 0.0
  var calibration: [BoardCapabilities.Calibration]
  var calibrating: (channel: Int, until: Double)?
  /// The serial the board keeps for life (`identity`, protocol v1.1; 0: none yet): kept across
  /// resets, like the Unos' EEPROM.
  public internal(set) var serial: UInt32
  private var step: Int64 = 0
  private var pending: [UInt8] = []

  /// Boots a board: its first frame is a `reset notice` (power-on), waiting in ``advance(to:)``'s
  /// output.
  public init(configuration: SimulatorConfiguration) {
    self.configuration = configuration
    let channels = configuration.profile.channels.count
    queues = Array(
      repeating: DriveQueue(ticksPerFrame: configuration.ticksPerFrame, capacity: configuration.queueDepth),
      count: channels)
    physics = configuration.actuators.map { ActuatorPhysics(parameters: $0, stepRate: configuration.physicsRate) }
    levels = Array(repeating: 0, count: channels)
    frequencies = Array(repeating: 0, count: channels)
    peakAcceleration = Array(repeating: 0, count: channels)
    bootCount = configuration.bootCount
    serial = configuration.serial
    watchdogTimeout = configuration.watchdog
    calibration = Array(repeating: configuration.supportsCalibration ? .uncalibrated : .notApplicable, count: channels)
    link = ReliableLink(session: UInt8(truncatingIfNeeded: bootCount))
    pending = link.send(.resetNotice(bootCount: bootCount, cause: .powerOn), now: 0)
  }

  /// The board clock (ticks) at virtual time `t`, with the configured offset and drift.
  public func boardTicks(at t: Double) -> UInt64 {
    let seconds = configuration.clockOffset + t * (1 + configuration.driftPPM * 1e-6)
    return UInt64(max(seconds, 0) * Double(configuration.clockFrequency))
  }

  /// The board clock now.
  public var now: UInt64 { boardTicks(at: time) }

  /// The drive each channel plays now: level as a fraction of full scale, and frequency in Hz.
  public var currentDrive: [(level: Double, frequency: Double)] {
    levels.indices.map { (levels[$0], frequencies[$0]) }
  }

  /// Each channel's vibration amplitude now, G (``ActuatorPhysics/envelope``).
  public var envelopes: [Double] { physics.map(\.envelope) }

  /// Handles bytes from the host at the current time; returns the board's reply bytes.
  public mutating func receive(_ bytes: [UInt8]) -> [UInt8] {
    var out = takePending()
    let before = decoder.counters.rejected
    let frames = decoder.feed(bytes)
    counters.badFrames += decoder.counters.rejected - before
    if decoder.counters.rejected > before { note(.badFrames(count: decoder.counters.rejected - before)) }
    guard !frames.isEmpty else { return out }
    // Any frame that passes the CRC feeds the watchdog (§6.7).
    lastValidFrame = time
    // Frames of another major version: an unreliable error naming the frame's type (§5).
    for frame in frames where frame.version != WireFrame.protocolVersion {
      counters.errors += 1
      out += link.unreliable(
        .error(ProtocolError(code: .unsupportedVersion, messageType: frame.type, detail: UInt16(WireFrame.protocolVersion))),
        now: time)
    }
    let output = link.receive(frames, now: time)
    out += output.bytes
    for frame in output.frames {
      out += handle(frame)
    }
    return out
  }

  /// Runs the board (playback, physics, watchdog, calibration, retransmission) up to virtual
  /// time `t`; returns what the board sends meanwhile.
  public mutating func advance(to t: Double) -> [UInt8] {
    var observer = NoTrace()
    return advance(to: t, trace: &observer)
  }

  /// ``advance(to:)`` that reports every physics step to `trace`.
  public mutating func advance<Trace: SimulationTrace>(to t: Double, trace: inout Trace) -> [UInt8] {
    var out = takePending()
    let dt = 1 / configuration.physicsRate
    while Double(step + 1) * dt <= t + 1e-12 {
      step += 1
      time = Double(step) * dt
      if isDriving && time - lastValidFrame >= watchdogTimeout {
        stopAll()
        watchdogFired = true
        counters.watchdogStops += 1
        note(.watchdogStop)
      }
      if let job = calibrating, time >= job.until { out += finishCalibration(job.channel) }
      let tick = now
      for channel in physics.indices {
        let underruns = queues[channel].underruns
        let drive = calibrating?.channel == channel ? DriveQueue.Drive(level: 0, frequency: 0) : queues[channel].drive(at: tick)
        if queues[channel].underruns != underruns { note(.underrun(channel: channel)) }
        let boardLevel = clampLevel(drive.level)
        let level = Double(boardLevel) / Double(configuration.profile.maxLevel)
        let frequency = clampFrequency(drive.frequency, channel: channel)
        if level != levels[channel] || frequency != frequencies[channel] {
          levels[channel] = level
          frequencies[channel] = frequency
          if logsDrive { driveLog.append(DriveChange(time: time, channel: channel, level: boardLevel, frequency: drive.frequency)) }
        }
        let acceleration = configuration.noActuator ? 0 : physics[channel].step(level: level, frequency: frequency)
        if abs(acceleration) > peakAcceleration[channel] { peakAcceleration[channel] = abs(acceleration) }
        trace.record(time: time, channel: channel, drive: level, acceleration: acceleration)
      }
    }
    time = max(time, t)
    out += link.poll(now: time).bytes
    return out
  }

  /// The level the board drives: within ±maxLevel, negative levels only on signed boards
  /// (§6.5: a level beyond full scale is full scale).
  func clampLevel(_ level: Int) -> Int {
    let maxLevel = configuration.profile.maxLevel
    return min(max(level, configuration.profile.amplitudeSigned ? -maxLevel : 0), maxLevel)
  }

  /// The carrier frequency the board drives, Hz: 0 (none given) is the channel's f0 (0 for the
  /// physics); others are clamped to the channel's frequency range; 0 without frequency control.
  private func clampFrequency(_ frequency: Int, channel: Int) -> Double {
    guard let range = configuration.profile.channels[channel].frequencyControl, frequency > 0 else { return 0 }
    return min(max(Double(frequency), range.lowerBound), range.upperBound)
  }

  mutating func stopAll() {
    for index in queues.indices { queues[index].stop() }
  }

  /// Restarts the board (a brown-out, a reset button): queues and link state are lost, the boot
  /// counter increments and a `reset notice` goes out first. The actuators keep ringing down.
  public mutating func reset(cause: ResetCause) {
    stopAll()
    bootCount &+= 1
    counters.resets += 1
    bootTime = time
    watchdogTimeout = configuration.watchdog
    watchdogFired = false
    calibrating = nil
    decoder = FrameDecoder()
    link = ReliableLink(session: UInt8(truncatingIfNeeded: bootCount))
    pending = link.send(.resetNotice(bootCount: bootCount, cause: cause), now: time)
    note(.reset(cause))
  }

  /// Drive queued or playing on any channel: what the watchdog guards (§6.7: `armed`).
  var isDriving: Bool {
    queues.contains { $0.fill > 0 || $0.current.level != 0 }
  }

  /// The board's status report now (§6.8).
  public var status: BoardStatus {
    var faults: BoardStatus.Faults = []
    if configuration.noActuator { faults.insert(.noActuator) }
    return BoardStatus(
      boardTime: UInt32(truncatingIfNeeded: now), watchdog: watchdogFired ? .fired : isDriving ? .armed : .idle,
      faults: faults,
      badFrames: UInt16(clamping: counters.badFrames),
      channels: queues.indices.map { index in
        BoardStatus.Channel(
          queueFill: UInt16(clamping: queues[index].fill), underruns: UInt16(clamping: queues[index].underruns),
          lateSegments: UInt16(clamping: queues[index].lateSegments),
          level: Int16(clamping: clampLevel(queues[index].current.level)))
      })
  }

  private mutating func takePending() -> [UInt8] {
    defer { pending = [] }
    return pending
  }
}

/// Receives every physics step of a simulation.
public protocol SimulationTrace {
  /// One step of one channel: drive as a fraction of full scale, acceleration in G.
  mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double)

  /// One drive frame of one channel as the renderer made it, before the steps it drives
  /// (``PatternSimulation`` calls it; by default nothing is kept).
  mutating func frame(_ frame: Frame, channel: Int)
}

extension SimulationTrace {
  /// Keeps nothing of the frame.
  public mutating func frame(_ frame: Frame, channel: Int) {}
}

/// A trace that keeps nothing.
public struct NoTrace: SimulationTrace {
  /// Creates it.
  public init() {}
  /// Ignores the step.
  public func record(time: Double, channel: Int, drive: Double, acceleration: Double) {}
}

extension SimulatedBoard {
  /// Moves time forward to `t` without simulating the gap (the real-time server does this when
  /// the host process stalled longer than its catch-up bound). Drive and physics resume at `t`.
  public mutating func skip(to t: Double) {
    guard t > time else { return }
    let dt = 1 / configuration.physicsRate
    step = max(step, Int64((t / dt).rounded(.down)))
    time = t
  }
}
