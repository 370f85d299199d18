import HapticRenderer
import HapticWire

/// When the board has drive to stop (docs/protocol.md §6.7): its watchdog is armed only while
/// drive is queued or playing, so heartbeats are needed only until the drive the host sent has
/// played, and a watchdog time after it (clock error, a batch that arrived late). An idle
/// board then gets no heartbeat — 40 a second per board before, most of an idle server's work —
/// only its clock queries, about once a second.
extension BoardConnection {
  /// Notes the drive `message` queues: heartbeats go on until it has played. Called with the
  /// state locked, as the message is sent.
  func arm(for message: WireMessage, state: inout State) {
    // Where the drive starts on the board's clock, how long it lasts there (ticks), and what
    // the board may play beyond it (seconds).
    let drive: (start: UInt32, ticks: UInt64, beyond: Double)
    switch message {
    case .queueSegments(let batch), .replaceSegments(let batch):
      guard configuration.ticksPerFrame > 0 else {
        // Its length on the board's clock cannot be told: heartbeats from now on, as before.
        state.armedUntil = .infinity
        return
      }
      let frames = batch.segments.reduce(UInt64(0)) { $0 + UInt64($1.frames) }
      drive = (batch.startTime, frames * configuration.ticksPerFrame, 0)
    case .playROMEffect(_, _, _, let startTime):
      drive = (startTime, 0, Self.longestROMEffect)
    case .calibrate:
      state.armedUntil = max(state.armedUntil, now + Self.longestCalibration)
      return
    default:
      return
    }
    guard let sync = state.sync, sync.isSynchronized else {
      // Its end cannot be told: heartbeats from now on, as before.
      state.armedUntil = .infinity
      return
    }
    let end = sync.hostTime(atBoardTicks: Double(sync.extend(drive.start) + drive.ticks)) + drive.beyond
    state.armedUntil = max(state.armedUntil, end)
  }

  /// Whether the board may have drive queued at host time `t` (heartbeats are due).
  func armed(_ state: State, at t: Double) -> Bool {
    t < state.armedUntil + configuration.watchdog
  }

  /// The longest DRV2605L ROM effect is well under this, seconds.
  static let longestROMEffect = 1.5
  /// A driver's auto-calibration takes well under this, seconds.
  static let longestCalibration = 2.0
}
