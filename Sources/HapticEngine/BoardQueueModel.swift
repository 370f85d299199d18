import HapticRenderer

/// The host's picture of one channel's segment queue on the board (docs/protocol.md §6.5): the
/// segments it sent, as the board keeps them — a batch drops what is queued at or after its
/// start and cuts a segment in progress there; a segment leaves the queue when it has played.
/// The scheduler sends no more than the board holds (`queueDepth` in its capabilities): a batch
/// beyond it is refused whole (`queueFull`) and its drive is lost. The Uno's queue holds 32
/// segments; a curve-shaped pattern on a 400 ms lookahead needs over 70, and the board played 0
/// for the last 48 ms of a 300 ms pattern before this model.
struct BoardQueueModel: Sendable {
  private var starts: [Int] = []
  private var ends: [Int] = []
  /// Whether each segment drives (a level other than 0 somewhere in it).
  private var driving: [Bool] = []
  private var head = 0

  /// Records a batch of `segments` starting at board frame `startFrame`.
  mutating func record(startFrame: Int, segments: [Segment]) {
    var kept = starts.count
    while kept > head && starts[kept - 1] >= startFrame { kept -= 1 }
    starts.removeSubrange(kept...)
    ends.removeSubrange(kept...)
    driving.removeSubrange(kept...)
    if kept > head && ends[kept - 1] > startFrame { ends[kept - 1] = startFrame }
    var frame = startFrame
    for segment in segments {
      starts.append(frame)
      frame += segment.frames
      ends.append(frame)
      driving.append(segment.startLevel != 0 || segment.endLevel != 0)
    }
    if head > 256 && head * 2 > starts.count {
      starts.removeFirst(head)
      ends.removeFirst(head)
      driving.removeFirst(head)
      head = 0
    }
  }

  /// Segments the board still holds at frame `now` that a batch starting at `frame` keeps
  /// (those starting before it and not yet played).
  mutating func kept(at now: Int, before frame: Int) -> Int {
    while head < ends.count && ends[head] <= now { head += 1 }
    var count = 0
    var index = head
    while index < starts.count && starts[index] < frame {
      count += 1
      index += 1
    }
    return count
  }

  /// Whether the board holds drive for frame `frame` or later: a batch of zero levels from
  /// there would change nothing it plays (it plays 0 where its queue has nothing).
  func drives(from frame: Int) -> Bool {
    var index = starts.count
    while index > head && ends[index - 1] > frame {
      if driving[index - 1] { return true }
      index -= 1
    }
    return false
  }

  /// The frame at which the first queued segment has played (a slot frees), if any.
  var nextFree: Int? { head < ends.count ? ends[head] : nil }
}
