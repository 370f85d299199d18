import HapticCore
import HapticEngine
import HapticSimulator

/// Dynamic-parameter → board drive latency (issue 6, goal ≤ 3 ms).
///
/// A long continuous event plays; every 30–70 ms (seeded random) the intensity control flips
/// between 1.0 and 0.3 through `sendParameters(…, time: 0)`. The latency of a call is from the
/// rig time just before the call to the first drive change in the board's log after it whose
/// level is on the new value's side of the midpoint between the two steady levels (measured
/// before the run: 200 ms after setting 1.0 and 0.3), e.g. an overdrive or a brake pulse counts
/// as soon as it moves the level across the midpoint.
enum LatencyMeasurement {
  struct Sample {
    /// Rig seconds just before the call.
    var call: Double
    /// Rig seconds when the call returned.
    var returned: Double
    /// The engine's clock (board seconds via clock sync) just before the call.
    var engineTime: Double
    var value: Double
  }

  static func run(_ rig: any Rig, label: String, samples: Int, seed: UInt64 = 6) throws {
    var rng = SplitMix(seed: seed)
    let length = Double(samples) * 0.07 + 3
    let pattern = HapticPattern(events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: length,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)])
    ])
    let engine = rig.engine
    let player = try engine.makePlayer(with: pattern)
    try player.start(atTime: 0)
    pause(0.3)
    let underrunsAtStart = engine.report.underruns
    func send(_ value: Double) throws {
      try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: value, time: 0)])
    }
    // Steady levels at 1.0 and 0.3.
    try send(1.0)
    pause(0.2)
    let highAt = rig.now()
    try send(0.3)
    pause(0.2)
    let lowAt = rig.now()
    var taken: [Sample] = []
    for i in 0..<samples {
      let value = i % 2 == 0 ? 1.0 : 0.3
      let engineTime = engine.currentTime
      let call = rig.now()
      try send(value)
      let returned = rig.now()
      taken.append(Sample(call: call, returned: returned, engineTime: engineTime, value: value))
      pause(Double.random(in: 0.030...0.070, using: &rng))
    }
    let end = rig.now()
    try player.stop(atTime: 0)
    pause(0.1)
    engine.requestStatus()
    pause(0.1)
    let log = rig.driveLog()
    func level(at t: Double) -> Int { log.last { $0.time <= t }?.level ?? 0 }
    let high = level(at: highAt)
    let low = level(at: lowAt)
    let mid = Double(high + low) / 2
    say("  steady levels: \(high) at intensity control 1.0, \(low) at 0.3 (midpoint \(fmt(mid, 1)))")
    var latencies: [Double] = []
    var viaClockSync: [Double] = []
    var callDurations: [Double] = []
    var missing = 0
    var searchFrom = log.startIndex
    for (index, sample) in taken.enumerated() {
      callDurations.append(sample.returned - sample.call)
      let until = index + 1 < taken.count ? taken[index + 1].call : end
      while searchFrom < log.endIndex && log[searchFrom].time < sample.call { searchFrom += 1 }
      var found: SimulatedBoard.DriveChange?
      var j = searchFrom
      while j < log.endIndex && log[j].time < until {
        let change = log[j]
        if sample.value > 0.5 ? Double(change.level) > mid : Double(change.level) < mid {
          found = change
          break
        }
        j += 1
      }
      guard let found else {
        missing += 1
        continue
      }
      latencies.append(found.time - sample.call)
      viaClockSync.append(rig.boardSeconds(atRig: found.time) - sample.engineTime)
    }
    say("  \(label): \(samples) calls, \(missing) without a matching drive change before the next call")
    say("  scheduler underruns already counted 0.3 s after the player started: \(underrunsAtStart)")
    sayStats("latency call → drive change (common clock)", latencies)
    sayStats("latency via the engine's clock (board time of change − engine.currentTime at call)", viaClockSync)
    sayStats("sendParameters call duration", callDurations)
    if let arrivals = rig.replaceArrivals() {
      breakdown(rig, taken, arrivals: arrivals, log: log, mid: mid, end: end)
    }
    if let worst = latencies.max(), worst > 0.003 {
      let over = latencies.filter { $0 > 0.003 }.count
      say("  note: \(over) of \(latencies.count) calls took over 3 ms (worst \(fmt(worst * 1000)) ms)")
    }
    reportCounters(rig)
  }

  /// Where the time goes over the line: call → the replace frame's last byte at the board →
  /// the drive change; and the slack the replace had on arrival (its start time minus the
  /// board clock then; negative = it arrived after the frame it was meant to change).
  static func breakdown(
    _ rig: any Rig, _ taken: [Sample], arrivals: [(time: Double, bytes: Int, start: Double, seq: UInt8)],
    log: [SimulatedBoard.DriveChange], mid: Double, end: Double
  ) {
    var toArrival: [Double] = []
    var toChange: [Double] = []
    var slack: [Double] = []
    var sizes: [Double] = []
    var lateCount = 0
    var toWrite: [Double] = []
    var writeToArrival: [Double] = []
    var lateSplits: [String] = []
    let writes = rig.replaceWrites() ?? []
    // A retransmitted frame repeats the seq of the one before it.
    let repeats = zip(arrivals, arrivals.dropFirst()).filter { $0.seq == $1.seq }.count
    for (index, sample) in taken.enumerated() {
      let until = index + 1 < taken.count ? taken[index + 1].call : end
      guard let arrival = arrivals.first(where: { $0.time > sample.call && $0.time < until }) else { continue }
      toArrival.append(arrival.time - sample.call)
      sizes.append(Double(arrival.bytes))
      let margin = arrival.start - rig.boardSeconds(atRig: arrival.time)
      slack.append(margin)
      // The host's write of that frame: the last with its seq before it arrived.
      let write = writes.last { $0.seq == arrival.seq && $0.time <= arrival.time + 1e-6 && $0.time >= sample.call }
      if let write {
        toWrite.append(write.time - sample.call)
        writeToArrival.append(arrival.time - write.time)
      }
      if margin < 0 {
        lateCount += 1
        let host = write.map { fmt(($0.time - sample.call) * 1000, 3) } ?? "?"
        let line = write.map { fmt((arrival.time - $0.time) * 1000, 3) } ?? "?"
        lateSplits.append("late by \(fmt(-margin * 1000, 3)) ms: call → written \(host) ms, written → received \(line) ms")
      }
      if let change = log.first(where: { change in
        change.time >= sample.call && change.time < until
          && (sample.value > 0.5 ? Double(change.level) > mid : Double(change.level) < mid)
      }) {
        toChange.append(change.time - arrival.time)
      }
    }
    say("  breakdown over the line (\(toArrival.count) calls matched to a replace frame):")
    sayStats("  call → replace frame fully received by the board", toArrival)
    if !toWrite.isEmpty {
      sayStats("    of which call → the host's write returned", toWrite)
      sayStats("    and written → fully received (the kernel, the server's wake-up, the line)", writeToArrival)
    }
    sayStats("  replace received → drive change", toChange)
    sayStats("  slack on arrival (batch start − board clock; < 0 = late)", slack)
    sayStats("  replace frame size", sizes, scale: 1, unit: "bytes", digits: 0)
    say("  \(lateCount) of \(slack.count) replaces arrived after their start frame; \(repeats) repeated frames (retransmissions)")
    for split in lateSplits { say("    " + split) }
  }

  /// Prints the engine's and the board's counters.
  static func reportCounters(_ rig: any Rig) {
    let report = rig.engine.report
    let board = rig.boardCounters()
    say(
      "  engine: \(report.replaces) replaces, \(report.segments) segments, \(report.underruns) scheduler underruns, "
        + "\(report.wireBytes) wire bytes, \(report.retransmissions) retransmits, \(report.recoveries) recoveries, "
        + "lookahead \(fmt(report.lookahead * 1000, 0)) ms; board: \(board.underruns) underruns, "
        + "\(board.late) late batches, \(board.watchdog) watchdog stops, \(board.badFrames) bad frames")
    if let extra = rig.extraReport() { say("  " + extra) }
  }
}
