import HapticRenderer
import HapticWire
import HapticLocks

/// One ordered path to the board.
///
/// Every batch cuts the board's queue at its own start frame (a replace drops what was queued
/// from there; a queue batch continues it), so batches must reach the board in the order they
/// were computed: a refill computed before a seek but sent after it would undo the seek until
/// the next refill. Computing and sending are therefore one critical section, ``sendOrder``,
/// taken by every path that renders drive — the loop's pass, a player's action, a loop or mute
/// change — and by the engine's own `stop`. The engine's state lock is taken inside it, only
/// while computing; the link's own lock inside `send` numbers and writes frames in the same
/// order (`BoardConnection`).
///
/// Rules that keep it free of deadlocks: nothing waits for the loop thread or calls a client's
/// handler while holding it (a failure to send is handled after leaving it), and links deliver
/// resets and disconnects outside a `send`.
extension HapticEngine {
  /// Runs `compute` (which takes the state lock itself) and sends the batches it returns before
  /// any other batch can be computed; returns its other result. A failure to send stops the
  /// engine with a system error, after the order is released. `Failure` is `Never` for a
  /// computation that cannot fail.
  func computeAndSend<Result: Sendable, Failure: Error>(
    _ compute: () throws(Failure) -> (batches: [StreamScheduler.Batch], result: Result)
  ) throws(Failure) -> Result {
    let (result, failure) = try sendOrder.withLock { () throws(Failure) -> (Result, HapticEngineError?) in
      let (batches, result) = try compute()
      return (result, transmit(batches))
    }
    if let failure { fail(.systemError, failure) }
    return result
  }

  /// The guard in seconds: the configured one, and at least the link's minimum lead per
  /// channel (a change is a batch per channel, sent one after the other: the last must arrive in
  /// time too — two channels at 115 200 baud: the second batch came 6.5 ms after its start).
  var guardSeconds: Double {
    max(configuration.guardTime, link.minimumLead * Double(max(profile.channels.count, 1)))
  }

  /// One reading of the board's clock for a change computed now: the board's current frame,
  /// and the least frame the change may take effect at — the first that starts at least
  /// ``guardSeconds`` after the board's time now (not after the current frame's start, which
  /// would leave between one frame less and the guard: a 2 ms guard left 1–2 ms, and a change
  /// that needed 1.0 ms to reach the board arrived 0.02 ms after its frame), behind what the host
  /// already wrote that is still on the wire (a refill just written at 1 Mbaud: 2 of 1 000
  /// replaces arrived after their frame without). Nil before clock sync.
  func changeClock() -> (now: Int, least: Int)? {
    guard let seconds = engineSeconds(atHost: link.hostNow) else { return nil }
    let now = Int((seconds / framePeriod).rounded(.down))
    return (now, Int(((seconds + guardSeconds + link.wireBacklog) / framePeriod).rounded(.up)))
  }

  /// Sends a message that must follow every batch already computed (the engine's `stop`).
  func sendInOrder(_ message: WireMessage) {
    sendOrder.withLock { _ = try? link.send(message) }
  }

  /// Sends batches (inside ``sendOrder``); returns the error that stopped it, if any.
  private func transmit(_ batches: [StreamScheduler.Batch]) -> HapticEngineError? {
    guard !batches.isEmpty else { return nil }
    let levelBytes = profile.levelBytes
    let maximumPayload = BatchPacker.maximumPayload(lossy: link.statistics.recoveries > 0)
    // Each channel's messages in their order; the channels' interleaved, one message of each in
    // turn: a message covers drive from its start on, so every channel's first drive goes out
    // early instead of waiting behind all of another channel's (at 115 200 baud a 96-byte
    // message is 9 ms on the line).
    var perChannel: [Int: [WireMessage]] = [:]
    var channelOrder: [Int] = []
    let channels = Set(batches.map(\.channel)).count
    let boardNow = engineSeconds(atHost: link.hostNow)
    for batch in batches {
      if perChannel[batch.channel] == nil { channelOrder.append(batch.channel) }
      perChannel[batch.channel, default: []] +=
        batch.messages
        ?? BatchPacker.messages(
          for: batch, levelBytes: levelBytes, ticksPerFrame: ticksPerFrame, maximumPayload: maximumPayload,
          deadline: deadline(for: batch, boardNow: boardNow, channels: channels))
    }
    let longest = perChannel.values.map(\.count).max() ?? 0
    var messages: [WireMessage] = []
    for index in 0..<longest {
      for channel in channelOrder {
        if let channelMessages = perChannel[channel], index < channelMessages.count { messages.append(onGrid(channelMessages[index])) }
      }
    }
    do {
      try link.send(contentsOf: messages)
    } catch {
      return error
    }
    return nil
  }
}
