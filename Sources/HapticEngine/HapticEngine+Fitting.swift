import HapticRenderer
import HapticWire

/// Changes that reach the board in time (docs/protocol.md §8).
///
/// A change is placed at the guard: the shortest message's transmission, what may slip onto
/// the wire ahead of it, the board's handling and the clock's uncertainty
/// (``BoardLink/minimumLead``). Its messages are packed so that each is on the board, and taken
/// (``BoardLink/handlingLead``), before the drive it carries starts (``HapticWire/SegmentBatchPacker/Deadline``): a short
/// first one when the lead is short, longer ones after it. Drive denser than the line can carry
/// behind the lead (a new level and frequency every 1 ms frame: 5 bytes a millisecond, and each
/// message's own 26 bytes of framing, header and hold) is placed again, later by what it
/// lacked, from the scheduler as it was before.
extension HapticEngine {
  /// When `batch`'s messages must be on the board: before the drive each carries starts, behind
  /// what is still on the wire and the clock's uncertainty, with `channels` channels' messages
  /// sharing the wire in turn. Nil for a link without a wire or before clock sync.
  func deadline(for batch: StreamScheduler.Batch, boardNow: Double?, channels: Int) -> SegmentBatchPacker.Deadline? {
    guard let boardNow, link.secondsPerByte > 0 else { return nil }
    let lead =
      Double(batch.startFrame) * framePeriod - boardNow - link.wireBacklog - link.clockUncertainty - link.handlingLead
    return SegmentBatchPacker.Deadline(
      lead: lead, secondsPerByte: link.secondsPerByte * Double(max(channels, 1)), framePeriod: framePeriod)
  }

  /// Batches whose drive starts this close (seconds) are checked; a refill goes a lookahead ahead.
  static let checkedLead = 0.1

  /// Packs the batches whose drive starts within ``checkedLead`` as `transmit` would, keeping
  /// their messages for it, and returns how late the latest message would reach the board after
  /// its drive starts, seconds (0 when all are in time).
  func packNear(_ batches: inout [StreamScheduler.Batch]) -> Double {
    guard link.secondsPerByte > 0, let boardNow = engineSeconds(atHost: link.hostNow) else { return 0 }
    let channels = Set(batches.map(\.channel)).count
    let maximumPayload = BatchPacker.maximumPayload(lossy: link.statistics.recoveries > 0)
    var worst = 0.0
    for index in batches.indices {
      let batch = batches[index]
      guard let deadline = deadline(for: batch, boardNow: boardNow, channels: channels), deadline.lead < Self.checkedLead
      else { continue }
      let messages = BatchPacker.messages(
        for: batch, levelBytes: profile.levelBytes, ticksPerFrame: ticksPerFrame, maximumPayload: maximumPayload,
        deadline: deadline)
      batches[index].messages = messages
      worst = max(
        worst,
        SegmentBatchPacker.lateness(of: messages, deadline: deadline, startFrame: batch.startFrame, ticksPerFrame: ticksPerFrame))
    }
    return worst
  }

  /// Runs `change` (given the least frame it may take effect at) on a copy of `scheduler`; when
  /// its batches could not reach the board in time, runs it again on `scheduler` as it was,
  /// from a least frame later by the shortfall. `scheduler` keeps the run whose batches are
  /// returned.
  func fitted<Result>(
    _ scheduler: inout StreamScheduler, least: Int,
    _ change: (inout StreamScheduler, Int) -> (batches: [StreamScheduler.Batch], result: Result)
  ) -> (batches: [StreamScheduler.Batch], result: Result) {
    // No wire (in process): nothing to be late for, and no copy to make.
    guard link.secondsPerByte > 0 else { return change(&scheduler, least) }
    var trial = scheduler
    var first = change(&trial, least)
    let late = packNear(&first.batches)
    guard late > 0 else {
      scheduler = trial
      return first
    }
    return change(&scheduler, least + Int((late / framePeriod).rounded(.up)))
  }
}

extension HapticEngine {
  /// ``StreamScheduler/modify(at:now:least:_:)`` from now on the engine's scheduler, if any,
  /// fitted (``fitted(_:least:_:)``).
  func fittedModify(
    _ scheduler: inout StreamScheduler?, now: Int, least: Int, _ change: (inout MixState) -> Void
  ) -> [StreamScheduler.Batch] {
    guard var current = scheduler else { return [] }
    defer { scheduler = current }
    return fitted(&current, least: least) { scheduler, least in
      (scheduler.modify(at: now, now: now, least: least, change), ())
    }.batches
  }
}
