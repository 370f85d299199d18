public import HapticWire
import HapticRenderer

/// One channel's segment queue on the board clock (docs/protocol.md §6.5): segments placed at
/// absolute board ticks, played frame by frame, with queue and replace-from-t semantics and the
/// late/underrun counters that `status` reports.
public struct DriveQueue: Sendable {
  /// A queued segment on the board's time line.
  struct Entry: Sendable {
    var start: UInt64
    /// Where playback of this entry ends (a replace may cut it short of start + frames·period).
    var end: UInt64
    var frames: Int
    var startLevel: Int
    var endLevel: Int
    var startFrequency: Int
    var endFrequency: Int
  }

  /// What a channel drives during one frame.
  public struct Drive: Sendable, Hashable {
    /// Signed level (full scale = the board's max level).
    public var level: Int
    /// Drive frequency in Hz (0 = none).
    public var frequency: Int
  }

  private var entries: [Entry] = []
  private var head = 0
  /// Board ticks per frame.
  public let ticksPerFrame: UInt64
  /// Segments the queue holds at most.
  public let capacity: Int
  /// Batches that arrived (partly) after their start time.
  public private(set) var lateSegments = 0
  /// Times the queue ran dry while driving.
  public private(set) var underruns = 0
  /// The drive of the frame played last.
  public private(set) var current = Drive(level: 0, frequency: 0)

  /// An empty queue.
  public init(ticksPerFrame: UInt64, capacity: Int) {
    self.ticksPerFrame = max(ticksPerFrame, 1)
    self.capacity = capacity
  }

  /// Segments queued and not yet finished.
  public var fill: Int { entries.count - head }

  /// Queues a batch starting at the absolute tick `start` (`replace`: first drop everything at or
  /// after `start`). Returns the free slots when it does not fit (nothing is queued then).
  /// A batch that overlaps queued drive without `replace` takes over from its start, as a
  /// replace would; one that starts in the past counts as late (its past part is skipped).
  public mutating func enqueue(_ batch: SegmentBatch, start: UInt64, now: UInt64, replace: Bool) -> Int? {
    compact()
    // Drop what the batch supersedes.
    var kept = entries.count
    while kept > head && entries[kept - 1].start >= start { kept -= 1 }
    guard batch.segments.count <= capacity - (kept - head) else { return max(capacity - fill, 0) }
    entries.removeSubrange(kept...)
    // Cut a segment in progress at `start` (the new batch takes over from there).
    if kept > head && entries[kept - 1].end > start { entries[kept - 1].end = start }
    var tick = start
    for segment in batch.segments {
      let end = tick + UInt64(segment.frames) * ticksPerFrame
      entries.append(
        Entry(
          start: tick, end: end, frames: segment.frames, startLevel: segment.startLevel,
          endLevel: segment.endLevel, startFrequency: segment.startFrequency, endFrequency: segment.endFrequency))
      tick = end
    }
    if start < now { lateSegments += 1 }
    return nil
  }

  /// Clears the queue and drives nothing from now on.
  public mutating func stop() {
    entries.removeAll(keepingCapacity: true)
    head = 0
    current = Drive(level: 0, frequency: 0)
  }

  /// The drive for the frame that contains board tick `now` (advancing past finished segments).
  public mutating func drive(at now: UInt64) -> Drive {
    while head < entries.count && entries[head].end <= now { head += 1 }
    guard head < entries.count else {
      if current.level != 0 { underruns += 1 }
      current = Drive(level: 0, frequency: 0)
      return current
    }
    let entry = entries[head]
    guard now >= entry.start else {
      current = Drive(level: 0, frequency: current.frequency)
      return current
    }
    let j = Int((now - entry.start) / ticksPerFrame)
    current = Drive(
      level: Segment.interpolate(entry.startLevel, entry.endLevel, min(j, entry.frames - 1), entry.frames),
      frequency: Segment.interpolate(entry.startFrequency, entry.endFrequency, min(j, entry.frames - 1), entry.frames))
    return current
  }

  private mutating func compact() {
    if head > 64 && head * 2 > entries.count {
      entries.removeFirst(head)
      head = 0
    }
  }
}
