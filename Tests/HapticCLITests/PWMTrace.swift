import Foundation

/// An emulated H-bridge board's drive trace (`time_us,channel,in1,in2`: each bridge input's
/// duty 0…255 from when it changes), per channel as the signed duty in1 − in2.
struct PWMTrace {
  struct Row {
    let microseconds: Double
    let duty: Int
  }

  /// Each channel's rows in time order.
  var channels: [Int: [Row]] = [:]

  init(contentsOf url: URL) throws {
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    guard lines.first == "time_us,channel,in1,in2" else {
      throw EmulatorError("trace \(url.path): header is \(lines.first.map(String.init) ?? "missing")")
    }
    for line in lines.dropFirst() {
      let fields = line.split(separator: ",")
      guard fields.count == 4, let t = Double(fields[0]), let channel = Int(fields[1]), let in1 = Int(fields[2]),
        let in2 = Int(fields[3]), (0...255).contains(in1), (0...255).contains(in2)
      else { throw EmulatorError("trace \(url.path): bad line '\(line)'") }
      if in1 != 0 && in2 != 0 { throw EmulatorError("trace \(url.path): both inputs driven at \(t) µs (shoot-through)") }
      channels[channel, default: []].append(Row(microseconds: t, duty: in1 - in2))
    }
  }

  /// The duty in effect at `t` µs on `rows` (0 before the first row).
  static func duty(_ rows: [Row], at t: Double) -> Int {
    var low = 0, high = rows.count
    while low < high {
      let mid = (low + high) / 2
      if rows[mid].microseconds <= t { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? 0 : rows[low - 1].duty
  }
}

/// One rendered frame of a channel: its level (signed, ±127 full scale) and frequency.
struct RenderedFrame: Equatable {
  let level: Int
  let hertz: Int
}

/// How a PWM trace compares with the renderer's frames of one channel, given where frame 0
/// starts on the trace's time line.
struct PWMComparison {
  /// The duty the firmware drives for a level: round(|level| × 255 / 127), its sign.
  static func duty(_ level: Int) -> Int {
    (level < 0 ? -1 : 1) * carrierAmplitude(level)
  }

  /// Where frame 0 starts (µs on the trace's time line): the first non-zero row against the
  /// first non-zero frame. An LRA's carrier restarts at sin 0, so its first non-zero duty comes
  /// one carrier sample (31.9 µs) after the frame starts, and up to one more before the
  /// interrupt first runs: `lead` takes that off.
  static func origin(_ rows: [PWMTrace.Row], frames: [RenderedFrame], lead: Double) -> Double? {
    guard let row = rows.first(where: { $0.duty != 0 }), let frame = frames.firstIndex(where: { $0.level != 0 })
    else { return nil }
    return row.microseconds - lead - Double(frame) * 1000
  }

  /// ERM: every frame's duty at its middle, against the frame's (or, timing within a frame, a
  /// neighbour's when the change was late or early); returns the frames that match none, and
  /// the largest duty error of the frames that matched their own.
  static func erm(_ rows: [PWMTrace.Row], frames: [RenderedFrame], origin: Double) -> (failures: [String], worst: Int, shifted: Int) {
    var failures: [String] = []
    var worst = 0, shifted = 0
    for (k, frame) in frames.enumerated() {
      let measured = PWMTrace.duty(rows, at: origin + (Double(k) + 0.5) * 1000)
      let expected = duty(frame.level)
      if abs(measured - expected) <= 1 {
        worst = max(worst, abs(measured - expected))
        continue
      }
      let neighbours = [k - 1, k + 1].filter { frames.indices.contains($0) }.map { duty(frames[$0].level) }
      if neighbours.contains(where: { abs(measured - $0) <= 1 }) {
        shifted += 1
      } else {
        failures.append("frame \(k): duty \(measured), expected \(expected) (level \(frame.level))")
      }
    }
    return (failures, worst, shifted)
  }

  /// A run of frames at one level and frequency.
  struct HeldRun {
    let first: Int
    let count: Int
    let frame: RenderedFrame
  }

  /// The runs of at least `minimum` frames at one non-zero level and frequency.
  static func heldRuns(_ frames: [RenderedFrame], minimum: Int) -> [HeldRun] {
    var runs: [HeldRun] = []
    var start = 0
    for k in 1...frames.count where k == frames.count || frames[k] != frames[start] {
      if frames[start].level != 0 && k - start >= minimum { runs.append(HeldRun(first: start, count: k - start, frame: frames[start])) }
      start = k
    }
    return runs
  }

  /// LRA, one held run: the peak duty of each half-wave sign over its frames (the carrier's
  /// amplitude) and the frequency from its rising edges (IN1 starting a positive half-wave).
  static func carrier(_ rows: [PWMTrace.Row], run: HeldRun, origin: Double) -> (peakPositive: Int, peakNegative: Int, hertz: Double?) {
    // One frame in from each end: the shaper's neighbours and the frame change's timing stay out.
    let start = origin + Double(run.first + 1) * 1000, end = origin + Double(run.first + run.count - 1) * 1000
    var peakPositive = 0, peakNegative = 0
    var edges: [Double] = []
    var previous = PWMTrace.duty(rows, at: start)
    for row in rows where row.microseconds > start && row.microseconds < end {
      peakPositive = max(peakPositive, row.duty)
      peakNegative = max(peakNegative, -row.duty)
      if previous <= 0 && row.duty > 0 { edges.append(row.microseconds) }
      if row.duty != 0 { previous = row.duty }
    }
    let hertz = edges.count >= 3 ? Double(edges.count - 1) / ((edges.last! - edges.first!) / 1e6) : nil
    return (peakPositive, peakNegative, hertz)
  }

  /// LRA: for every run of non-zero frames after a zero frame, the sign of its first non-zero
  /// duty (the carrier restarts at phase 0: a positive level starts with a positive half-wave,
  /// a negative one in anti-phase) and how long after the run's frame start it came (µs).
  static func restarts(_ rows: [PWMTrace.Row], frames: [RenderedFrame], origin: Double)
    -> [(frame: Int, signMatches: Bool, delay: Double)]
  {
    var result: [(Int, Bool, Double)] = []
    for k in frames.indices where frames[k].level != 0 && (k == 0 || frames[k - 1].level == 0) {
      let start = origin + Double(k) * 1000
      guard let row = rows.first(where: { $0.microseconds >= start - 200 && $0.duty != 0 }) else { continue }
      result.append((k, (row.duty > 0) == (frames[k].level > 0), row.microseconds - start))
    }
    return result
  }
}
