public import HapticWire

/// Something a simulated board did beside its drive: what `sim serve --trace` writes to its
/// events file (docs/protocol.md names the counters these feed).
public struct BoardEvent: Sendable, Hashable {
  /// What happened.
  public enum Kind: Sendable, Hashable {
    /// A channel's queue ran dry while it was driving (the drive fell to 0).
    case underrun(channel: Int)
    /// A batch arrived after its start time by `late` seconds (its past part was skipped).
    case lateBatch(channel: Int, late: Double)
    /// A batch was refused: the channel's queue had no room for it.
    case queueFull(channel: Int)
    /// The watchdog stopped the drive: no valid frame for the timeout.
    case watchdogStop
    /// The board restarted (queues and link lost).
    case reset(ResetCause)
    /// Frames that failed their CRC or length checks.
    case badFrames(count: Int)
    /// The port's other end closed (the host process ended or closed the port).
    case hostGone
    /// A host opened the port again after ``hostGone`` (a first open is not seen: a
    /// pseudo-terminal nobody opened yet reads like an open one).
    case hostOpened
  }

  /// Seconds since the board started, on its own time line (the trace's `time_s`).
  public var time: Double
  /// What happened.
  public var kind: Kind

  /// Creates an event.
  public init(time: Double, kind: Kind) {
    self.time = time
    self.kind = kind
  }

  /// The event's name in a trace: `underrun`, `late_batch`, `queue_full`, `watchdog_stop`,
  /// `reset`, `bad_frames`, `host_gone`, `host_opened`.
  public var name: String {
    switch kind {
    case .underrun: "underrun"
    case .lateBatch: "late_batch"
    case .queueFull: "queue_full"
    case .watchdogStop: "watchdog_stop"
    case .reset: "reset"
    case .badFrames: "bad_frames"
    case .hostGone: "host_gone"
    case .hostOpened: "host_opened"
    }
  }

  /// The channel the event concerns, nil for board-wide events.
  public var channel: Int? {
    switch kind {
    case .underrun(let channel), .lateBatch(let channel, _), .queueFull(let channel): channel
    default: nil
    }
  }

  /// What else there is to say: the lateness in ms, the reset cause, the bad frame count.
  public var detail: String {
    switch kind {
    case .lateBatch(_, let late): "late_ms=\((late * 1e5).rounded() / 100)"
    case .reset(let cause): "cause=\(cause)"
    case .badFrames(let count): "count=\(count)"
    default: ""
    }
  }
}

extension SimulatedBoard {
  /// Notes an event when ``recordsEvents`` is on.
  mutating func note(_ kind: BoardEvent.Kind) {
    guard recordsEvents else { return }
    events.append(BoardEvent(time: time, kind: kind))
  }

  /// The events noted since the last call (and forgets them).
  public mutating func takeEvents() -> [BoardEvent] {
    defer { events.removeAll(keepingCapacity: true) }
    return events
  }
}
