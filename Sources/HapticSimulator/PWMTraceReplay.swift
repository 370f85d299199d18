/// What an emulated PWM H-bridge board drives its actuators with, replayed from the emulator's
/// drive trace (`time_us,channel,in1,in2` rows: each bridge input's duty, 0…255, from when it
/// changes) through the actuator physics, one model per channel.
///
/// A bridge's output over a physics step is its inputs' duty difference, (in1 − in2) / 255 of
/// full scale, taken at the step's middle: the PWM (31.4 kHz) is far above anything an
/// actuator follows, so its average is what moves the mass. An ERM takes that as its level; an
/// LRA takes it as its instantaneous drive — the carrier the board synthesizes, not an
/// envelope — so phase, frequency and brakes reach the physics exactly as the firmware made them.
public struct PWMTraceReplay {
  private var physics: [ActuatorPhysics]
  private var drive: [Double]
  private let rate: Double
  private var step = 0
  /// Rows that came before a time already replayed (applied late): 0 for a trace in order.
  public private(set) var rowsOutOfOrder = 0
  /// Rows for a channel the board does not have, or duties out of range (ignored).
  public private(set) var rowsRejected = 0

  /// A replay of one actuator per channel, stepped `physicsRate` times a second.
  public init(actuators: [ActuatorParameters], physicsRate: Double) {
    physics = actuators.map { ActuatorPhysics(parameters: $0, stepRate: physicsRate) }
    drive = Array(repeating: 0, count: actuators.count)
    rate = physicsRate
  }

  /// The time replayed so far, seconds.
  public var time: Double { Double(step) / rate }

  /// Steps every channel up to `t` seconds with the drives held, reporting each step to `sink`.
  public mutating func advance(to t: Double, sink: any ServedBoardTrace) {
    // A step's drive is the one in effect at its middle: advance to t - half a step.
    while (Double(step) + 0.5) / rate <= t + 1e-12 {
      step += 1
      let now = Double(step) / rate
      for channel in physics.indices {
        let acceleration = physics[channel].step(instantaneousDrive: drive[channel])
        sink.step(time: now, channel: channel, drive: drive[channel], acceleration: acceleration)
      }
    }
  }

  /// Replays up to a row at `t` seconds, then applies it: channel `channel`'s inputs now
  /// have duties `in1` and `in2` (0…255).
  public mutating func row(at t: Double, channel: Int, in1: Int, in2: Int, sink: any ServedBoardTrace) {
    guard drive.indices.contains(channel), (0...255).contains(in1), (0...255).contains(in2) else {
      rowsRejected += 1
      return
    }
    if t < time - 1 / rate { rowsOutOfOrder += 1 }
    advance(to: t, sink: sink)
    drive[channel] = Double(in1 - in2) / 255
  }
}
