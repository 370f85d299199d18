import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire

/// The largest onset error of a `send` run and what it was measured from (docs/semantics.md
/// §13.7): for each haptic event (the first 64 by time, those before the seek left out, times
/// divided by the rate), where it belongs is the player's start plus its time; its onset is
/// the first drive onset of its channels within two frames of that; the error is the distance
/// in board time.
struct OnsetMeasurement {
  /// The largest error, seconds; nil when nothing was measured.
  var error: Double?
  /// What it was measured from, or why it was not.
  var basis: String

  /// Events checked at most.
  static let eventLimit = 64

  /// Measures the run of `plays` started at board time `start` (seeked to `seek` pattern
  /// seconds, at `rate`) on `engine`, whose final report (with the board's status) is `report`.
  /// On the in-process simulator the onsets are the simulated board's own drive log. Over a
  /// port they are the drive the host sent, which the board drives at exactly its board time
  /// when no batch of the run came late: with late batches (the board does not say by how
  /// much) nothing is claimed.
  static func measure(
    _ plays: [ChannelPlay], start: Double, seek: Double, rate: Double, engine: HapticEngine, report: HapticEngine.Report,
    wasReset: Bool
  ) -> OnsetMeasurement {
    let expected = plays.flatMap { play in
      play.pattern.events.filter { $0.type.isHaptic && $0.time >= seek }.map { (time: start + ($0.time - seek) / rate, channels: play.channels) }
    }
    .sorted { $0.time < $1.time }.prefix(eventLimit)
    guard !expected.isEmpty else { return OnsetMeasurement(error: nil, basis: "not measured: no haptic event to play") }
    if wasReset { return OnsetMeasurement(error: nil, basis: "not measured: the board reset while playing") }
    let onsets: [(time: Double, channel: Int)]
    let basis: String
    if let link = engine.link as? SimulatorBoardLink {
      let board = link.snapshot
      let frequency = Double(engine.capabilities.clockFrequency)
      onsets = board.driveLog.filter { $0.level != 0 }.map { (Double(board.boardTicks(at: $0.time)) / frequency, $0.channel) }
      basis = "the simulated board's drive"
    } else {
      guard report.boardStatusAnswered else {
        return OnsetMeasurement(error: nil, basis: "not measured: the board did not answer the final status")
      }
      guard report.lateSegments == 0 else {
        return OnsetMeasurement(
          error: nil, basis: "not measured: \(report.lateSegments) batches reached the board late (it does not say by how much)")
      }
      onsets = report.onsets.map { ($0.time, $0.channel) }
      basis = "the drive sent, which the board reported playing with no late batch"
    }
    let period = engine.profile.framePeriod
    var worst: Double?
    for event in expected {
      let near = onsets.filter { onset in
        (event.channels?.contains(onset.channel) ?? true) && abs(onset.time - event.time) <= 2 * period + 1e-9
      }
      guard let first = near.min(by: { $0.time < $1.time }) else { continue }
      worst = max(worst ?? 0, abs(first.time - event.time))
    }
    guard let worst else {
      return OnsetMeasurement(error: nil, basis: "not measured: no drive started within two frames of an event")
    }
    return OnsetMeasurement(error: worst, basis: basis)
  }
}
