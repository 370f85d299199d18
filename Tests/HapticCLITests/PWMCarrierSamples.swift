import Foundation

/// The LRA carrier sample by sample (``PWMComparison/carrierSamples(_:frames:tolerance:)``).
extension PWMComparison {
  /// What the sample-by-sample comparison found.
  struct CarrierSamples {
    /// Frames with a sample that is neither the frame's duty nor, before the frame's first
    /// matching sample, the previous frame's (each with the first such sample).
    var failures: [String] = []
    /// The largest error of the samples that matched their frame.
    var worst = 0
    /// Frames that switched after their first sample, and the latest switch (µs after the
    /// frame's first sample).
    var lateFrames = 0
    var latestSwitch = 0.0
    /// Where the frame grid fell on the sample grid (µs from a frame's start to its first sample).
    var offset = 0.0
    /// Samples that repeated the previous sample's duty (their interrupt ran after TOP).
    var heldSamples = 0
    /// Frames' last samples that were the next frame's already.
    var earlySamples = 0
  }

  /// LRA, sample by sample: the carrier the firmware must synthesize from the frames (its
  /// phase accumulator, half-sine table and duty rounding, docs/protocol.md §6.5) against what
  /// the PWM puts out for each sample (the last duty written before TOP: phase-correct PWM
  /// takes OCR2x there), within `tolerance` of the duty (its rounding) at a phase known to an
  /// eighth of an increment either way (a restart's phase is fitted to a sixteenth; a switch
  /// lands a sample early or late against its exact time) and a level within 1 of the frame's
  /// (the wire's ramps reproduce frames within a level). Until a frame's first matching sample, and within its
  /// first ``switchSamples``, samples may still be the previous frame's.
  ///
  /// The samples' grid (Timer2's BOTTOM, every 31.875 µs) is where the interrupt writes with
  /// the least latency; the pattern's first sample is the one before its first non-zero duty.
  /// Where the frame grid falls on the sample grid is not in the trace: every offset in a
  /// sample period is tried, the one with the fewest failures and late frames counts. A
  /// carrier restarts at phase 0 on a sample when its frame was staged, and at the phase the
  /// frame's start would have given when it was set late: each restart's phase is fitted to its
  /// first samples (16 candidates within one increment).
  static func carrierSamples(_ rows: [PWMTrace.Row], frames: [RenderedFrame], tolerance: Int = 1) -> CarrierSamples? {
    let period = 510.0 / 16.0
    guard let first = rows.first(where: { $0.duty != 0 })?.microseconds else { return nil }
    let residues = rows.map { row -> Double in
      let r = (row.microseconds - first).truncatingRemainder(dividingBy: period)
      let positive = r < 0 ? r + period : r
      return positive > period / 2 ? positive - period : positive
    }
    let grid = first + (residues.min() ?? 0)
    let restart = grid + ((first - grid) / period).rounded() * period - period
    // What the PWM put out for each sample from the restart on.
    let count = Int(Double(frames.count) * 1000 / period) + 2
    var measured = [Int](repeating: 0, count: count)
    var row = 0
    for n in 0..<count {
      let top = restart + Double(n) * period + period / 2
      while row + 1 < rows.count && rows[row + 1].microseconds <= top { row += 1 }
      measured[n] = rows.isEmpty || rows[row].microseconds > top ? 0 : rows[row].duty
    }
    var best: CarrierSamples?
    for step in 0..<32 {
      var result = carrierSamples(measured, frames: frames, offset: Double(step), tolerance: tolerance)
      result.offset = Double(step)
      if let current = best, (current.failures.count, current.lateFrames) <= (result.failures.count, result.lateFrames) {
        continue
      }
      best = result
    }
    return best
  }

  /// One offset of ``carrierSamples(_:frames:tolerance:)``: sample 0 (the first restart's) at
  /// `offset` µs after frame 0's start.
  private static func carrierSamples(_ measured: [Int], frames: [RenderedFrame], offset: Double, tolerance: Int)
    -> CarrierSamples
  {
    let period = 510.0 / 16.0  // µs per carrier sample (16 MHz / 510)
    var result = CarrierSamples()
    var phase: UInt32 = 0
    var current = -1
    var switched = false
    var firstSample = 0
    var failed = false
    var previousExpected = 0
    func frame(of n: Int) -> Int { min(Int((offset + Double(n) * period) / 1000), frames.count - 1) }
    func duty(_ level: Int, _ phase: UInt32) -> Int {
      guard level != 0 else { return 0 }
      let index = Int(phase >> 24)
      let magnitude = (carrierAmplitude(level) * halfSine[index & 0x7F] + 255) >> 8
      return (index & 0x80 != 0) != (level < 0) ? -magnitude : magnitude
    }
    /// The restart phase (within one increment of 0) that best fits the 8 samples from `n`.
    func restartPhase(at n: Int, frame k: Int) -> UInt32 {
      let increment = carrierIncrement(frames[k].hertz)
      var best: (error: Int, phase: UInt32) = (.max, 0)
      for candidate in 0..<16 {
        var p = UInt32(UInt64(increment) * UInt64(candidate) / 16)
        var error = 0
        for m in n..<min(n + 8, measured.count) where frame(of: m) == k {
          error += abs(measured[m] - duty(frames[k].level, p))
          p = p &+ increment
        }
        if error < best.error { best = (error, UInt32(UInt64(increment) * UInt64(candidate) / 16)) }
      }
      return best.phase
    }
    /// How far `value` is from `level`'s duty at a phase known to an eighth of a sample's
    /// increment either way (the restart's fitted phase, a switch's sample against its exact
    /// time: near a zero crossing a table step is 6 of 255), the level itself within 1 (the
    /// wire's ramps reproduce the renderer's frames within a level: 69.5 plays as 70).
    func distance(_ value: Int, _ level: Int, _ phase: UInt32, _ increment: UInt32) -> Int {
      let slack = increment / 8
      let levels = level == 0 ? [0] : [level - 1, level, level + 1].filter { $0 != 0 && ($0 > 0) == (level > 0) }
      return levels.flatMap { candidate in
        [phase &- slack, phase, phase &+ slack].map { abs(value - duty(candidate, $0)) }
      }.min() ?? .max
    }
    let samples = min(Int((Double(frames.count) * 1000 - offset) / period), measured.count)
    for n in 0..<samples {
      let k = frame(of: n)
      if k != current {
        if current >= 0 && !switched { result.lateFrames += 1 }
        if frames[k].level != 0 && (k == 0 || frames[k - 1].level == 0) { phase = restartPhase(at: n, frame: k) }
        current = k
        switched = false
        failed = false
        firstSample = n
      }
      let increment = carrierIncrement(frames[k].hertz)
      let expected = duty(frames[k].level, phase)
      let error = distance(measured[n], frames[k].level, phase, increment)
      // An interrupt delayed past TOP (by another interrupt) leaves the previous sample's duty
      // for one more PWM period: timing within a sample.
      let held = n > 0 && abs(measured[n] - previousExpected) <= tolerance && error <= abs(previousExpected - expected) + tolerance
      // The same delay at a reversal (this sample's drive, or the next frame's if it switches
      // here, of the other sign than the last): the firmware's carrier interrupt
      // (hbridge_avr.c, TIMER2_OVF_vect) writes the input going to 0 first, by design (both
      // are never on together), and the compare unit latches both at TOP; TOP falling between
      // the two writes latches that 0 and the other input's old 0, one coasting sample. The
      // firmware's behaviour, not a fault: e.g. "frame 401: 0 at sample 12611, expected 27",
      // the last sample before frame 402's −26, with the interrupt delayed as held samples are.
      let nextExpected = k + 1 < frames.count && frame(of: n + 1) == k + 1 ? duty(frames[k + 1].level, phase) : 0
      let reverses = [expected, nextExpected].contains { $0 != 0 && ($0 > 0) != (previousExpected > 0) }
      let straddled = n > 0 && measured[n] == 0 && previousExpected != 0 && reverses
      previousExpected = expected
      if (held || straddled) && error > tolerance {
        result.heldSamples += 1
      } else if error <= tolerance {
        if !switched && n > firstSample {
          result.lateFrames += 1
          let late = Double(n - firstSample) * period
          result.latestSwitch = max(result.latestSwitch, late)
        }
        switched = true
        result.worst = max(result.worst, error)
      } else if !switched && k > 0 && n - firstSample < Self.switchSamples
        && distance(measured[n], frames[k - 1].level, phase, increment) <= tolerance
      {
        // Still the previous frame: the switch comes at the first sample from the frame's start
        // on, as the interrupt sees the time.
      } else if k + 1 < frames.count && frame(of: n + 1) == k + 1
        && distance(measured[n], frames[k + 1].level, frames[k].level == 0 && frames[k + 1].level != 0 ? 0 : phase, increment)
          <= tolerance
      {
        // The last sample already the next frame's: its interrupt ran after the frame's start
        // (the sample grid against the switch's exact time, give or take the latency).
        result.earlySamples += 1
      } else if !failed {
        failed = true
        result.failures.append("frame \(k): \(measured[n]) at sample \(n), expected \(expected) (level \(frames[k].level))")
      }
      phase = phase &+ increment
    }
    return result
  }

  /// Samples into a frame by which it must have switched: the interrupt switches at its first
  /// sample from the frame's start on (staged), within 3 samples (96 µs) allowing for its
  /// latency and the frame grid against the sample grid.
  static let switchSamples = 3

  /// The firmware's half-sine table: round(255 sin(π i / 128)).
  static let halfSine = (0..<128).map { Int((255 * sin(Double.pi * Double($0) / 128)).rounded()) }

  /// The firmware's phase increment per sample for whole hertz.
  static func carrierIncrement(_ hertz: Int) -> UInt32 {
    let tenths = UInt32(hertz * 10)
    return tenths &* 13690 &+ ((tenths &* 13648 &+ 32768) >> 16)
  }

  /// The firmware's carrier amplitude for a level: round(|level| 255 / 127).
  static func carrierAmplitude(_ level: Int) -> Int {
    let m = min(abs(level), 127)
    return m >= 127 ? 255 : 2 * m + (m >= 64 ? 1 : 0)
  }
}
