public import HapticCore
public import HapticRenderer

/// Plays a pattern on a simulated board without a link: the renderer's frames drive each
/// channel's actuator physics directly (the frames a board would expand from the segments), on
/// a virtual clock, and every physics step goes to a ``SimulationTrace``. After the drive ends
/// the simulation runs on until every actuator is at rest (at most ``tailLimit`` seconds), so
/// ring-down and braking can be measured.
public struct PatternSimulation: Sendable {
  /// The board being simulated.
  public let configuration: SimulatorConfiguration
  /// Longest ring-down simulated after the drive ends, seconds.
  public var tailLimit = 0.5
  /// Acceleration below which an actuator counts as at rest, G.
  public var restThreshold = 0.001
  /// After ``run(into:)``: seconds until the drive came to rest, the start of the render's last
  /// frame (the same as a render's `driveDuration`, docs/semantics.md §11.2).
  public private(set) var driveDuration = 0.0
  private var renders: [FrameRenderer]

  /// Prepares a simulation of `pattern` on `configuration`'s board: on every channel, or on
  /// `channels` only (the others stay still).
  public init(
    pattern: HapticPattern, configuration: SimulatorConfiguration, options: RenderOptions = RenderOptions(),
    channels: [Int]? = nil
  ) throws(RenderError) {
    if let problem = configuration.problem {
      throw RenderError(board: configuration.profile.id, message: problem)
    }
    self.configuration = configuration
    var renders: [FrameRenderer] = []
    for channel in configuration.profile.channels.indices {
      let plays = channels?.contains(channel) ?? true
      renders.append(
        try FrameRenderer(pattern: plays ? pattern : HapticPattern(), profile: configuration.profile, channel: channel, options: options))
    }
    self.renders = renders
  }

  /// Runs the whole simulation into `trace`; returns the simulated duration in seconds.
  @discardableResult
  public mutating func run<Trace: SimulationTrace>(into trace: inout Trace) -> Double {
    let profile = configuration.profile
    let maxLevel = Double(profile.maxLevel)
    let frequencyControl = profile.channels.map { $0.frequencyControl != nil }
    var physics = configuration.actuators.map {
      ActuatorPhysics(parameters: $0, stepRate: configuration.physicsRate)
    }
    let dt = 1 / configuration.physicsRate
    let channels = renders.count
    var drive = Array(repeating: (level: 0.0, frequency: 0.0), count: channels)
    var finished = Array(repeating: false, count: channels)
    var step = 0
    var frameIndex = -1
    var lastRendered = 0
    var tailStart: Double?
    var quietSince = Array(repeating: 0.0, count: channels)
    while true {
      let time = Double(step + 1) * dt
      // The frame that contains the start of this step.
      let frame = Int((Double(step) * dt / profile.framePeriod + 1e-9).rounded(.down))
      if frame != frameIndex {
        frameIndex = frame
        for channel in 0..<channels where !finished[channel] {
          if let next = renders[channel].next() {
            trace.frame(next, channel: channel)
            lastRendered = max(lastRendered, next.index)
            let level = Double(next.level) / maxLevel
            drive[channel] = (
              profile.amplitudeSigned ? level : max(level, 0), frequencyControl[channel] ? Double(next.frequency) : 0
            )
          } else {
            finished[channel] = true
            drive[channel] = (0, 0)
          }
        }
        if tailStart == nil && !finished.contains(false) { tailStart = Double(step) * dt }
      }
      var allQuiet = true
      for channel in 0..<channels {
        let acceleration = configuration.noActuator
          ? 0 : physics[channel].step(level: drive[channel].level, frequency: drive[channel].frequency)
        trace.record(time: time, channel: channel, drive: drive[channel].level, acceleration: acceleration)
        if abs(acceleration) >= restThreshold { quietSince[channel] = time }
        // Quiet for a full cycle of the slowest plausible vibration (25 ms).
        if time - quietSince[channel] < 0.025 { allQuiet = false }
      }
      step += 1
      if let tailStart, allQuiet || time - tailStart >= tailLimit {
        driveDuration = Double(lastRendered) * profile.framePeriod
        return time
      }
    }
  }
}
