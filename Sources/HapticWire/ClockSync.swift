/// Estimates the board clock from round trips: offset and drift by least-squares regression over
/// recent samples, keeping only the fastest round trips (min-RTT filtering), so that converting
/// host time ⇄ board time stays accurate under jittery, asymmetric delays and ±200 ppm drift.
///
/// Each sample is a clock query sent at host time `t1`, answered with board ticks `b`, received
/// at `t2`. The board read its clock somewhere in between; the midpoint is the best guess, and
/// its error is at most half the round trip — hence using the fastest ones.
public struct ClockSync: Sendable {
  private struct Sample: Sendable {
    let hostMid: Double
    let roundTrip: Double
    let boardSeconds: Double
  }

  /// Board ticks per second, as the board reports it.
  public let clockFrequency: Double
  /// How many recent samples are kept (256 at one query per 50 ms is about 13 s).
  public let windowSize: Int
  private var samples: [Sample] = []
  private var reference: Double?
  private var slope = 1.0
  /// The fitted slope's standard error, and its degrees of freedom.
  private var slopeError: (error: Double, degreesOfFreedom: Int)?
  private var intercept = 0.0
  private var lastTicks: UInt64 = 0

  /// Creates an estimator for a board clock of `clockFrequency` Hz.
  public init(clockFrequency: Double, windowSize: Int = 256) {
    self.clockFrequency = clockFrequency
    self.windowSize = max(windowSize, 4)
  }

  /// True once there are enough samples to estimate drift.
  public var isSynchronized: Bool { samples.count >= 3 }

  /// Board seconds per host second, minus one, in parts per million.
  public var driftPPM: Double { (slope - 1) * 1e6 }

  /// How far off ``driftPPM`` may be: the half width of its 95 % interval (the fitted slope's
  /// standard error times Student's t for the samples' degrees of freedom: 2.45 for a probe's
  /// 8 chosen samples, about 2 for many), in parts per million; nil until the samples span the
  /// half second drift needs. A probe's second of samples over a jittery line can be thousands
  /// of ppm uncertain; the connection's minutes of samples far less.
  public var driftUncertaintyPPM: Double? { slopeError.map { $0.error * Self.studentT95(degreesOfFreedom: $0.degreesOfFreedom) * 1e6 } }

  /// Student's t at 97.5 % (a two-sided 95 % interval) for `degreesOfFreedom`.
  static func studentT95(degreesOfFreedom: Int) -> Double {
    let table: [Double] = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13]
    if degreesOfFreedom >= 1 && degreesOfFreedom <= table.count { return table[degreesOfFreedom - 1] }
    return degreesOfFreedom <= 30 ? 2.09 : 2.0
  }

  /// How many round trips the window holds.
  public var sampleCount: Int { samples.count }

  /// How far the board's readings that the fit chose (the fastest round trips) lie from its
  /// line: their root-mean-square residual, seconds (n − 2 degrees of freedom); nil until 4 are
  /// fitted over the half second drift needs. Measured: 66–115 µs on boards behind local
  /// pseudo-terminals, 70–128 µs on the emulated Uno, 340–490 µs behind a network with ±1 ms of
  /// jitter (docs/rigs.md). It reports the fit; how often a link asks the clock goes by the
  /// fastest round trip instead, which tells those boards apart (docs/protocol.md §8).
  public private(set) var residual: Double?

  /// The fastest round trip in the window, in seconds (kept as samples come and go: the link
  /// reads it at every wake-up).
  public private(set) var minimumRoundTrip: Double?

  /// Board time minus host time in seconds, at host time `t`.
  public func offset(atHost t: Double) -> Double { boardSeconds(atHost: t) - t }

  /// Adds a round trip.
  ///
  /// - Parameters:
  ///   - hostSend: host time the query was sent, in seconds.
  ///   - hostReceive: host time the answer arrived.
  ///   - boardTicks: the board clock in the answer.
  public mutating func add(hostSend: Double, hostReceive: Double, boardTicks: UInt64) {
    guard hostReceive >= hostSend, hostSend.isFinite, hostReceive.isFinite else { return }
    let mid = (hostSend + hostReceive) / 2
    if reference == nil { reference = mid }
    lastTicks = boardTicks
    samples.append(Sample(
      hostMid: mid, roundTrip: hostReceive - hostSend, boardSeconds: Double(boardTicks) / clockFrequency))
    if samples.count > windowSize { samples.removeFirst(samples.count - windowSize) }
    minimumRoundTrip = samples.lazy.map(\.roundTrip).min()
    fit()
  }

  private mutating func fit() {
    guard let reference, let first = samples.first?.hostMid, let last = samples.last?.hostMid else { return }
    // Keep, in each quarter of the window's time span, the fastest third of its round trips
    // (at least 2, and all within 20 µs of its fastest): their midpoints are closest to when
    // the board read its clock, and with many of them the remaining asymmetry averages out.
    // Per quarter, so the chosen samples span the window even when the fast round trips all
    // came in one part of it (a host that got busy later); over the whole window at once the
    // fastest third could bunch into a fraction of a second and leave drift unmeasured.
    let width = (last - first) / 4
    var chosen: [Sample] = []
    for quarter in 0..<4 {
      let low = first + Double(quarter) * width
      let high = quarter == 3 ? last : low + width
      let part = samples.filter { $0.hostMid >= low && ($0.hostMid < high || (quarter == 3 && $0.hostMid <= high)) }
      guard let fastest = part.map(\.roundTrip).min() else { continue }
      let sorted = part.map(\.roundTrip).sorted()
      let quantile = sorted[min(sorted.count - 1, max(1, sorted.count / 3))]
      let limit = max(quantile, fastest + 20e-6)
      chosen += part.filter { $0.roundTrip <= limit }
      if width <= 0 { break }
    }
    // Weighted by the inverse square of each round trip: a midpoint is off by at most half its
    // round trip, so a sample of 5 ms says a hundredth of what one of 0.4 ms does. A quarter
    // whose answers all came back late (a relay starved of the CPU) then no longer pulls the
    // fit by its whole delay; round trips alike weigh alike, as before.
    let weights = chosen.map { sample in
      let roundTrip = Swift.max(sample.roundTrip, Self.weightFloor)
      return 1 / (roundTrip * roundTrip)
    }
    let totalWeight = weights.reduce(0, +)
    var meanX = 0.0
    var meanY = 0.0
    for (sample, weight) in zip(chosen, weights) {
      meanX += weight * (sample.hostMid - reference)
      meanY += weight * sample.boardSeconds
    }
    meanX /= totalWeight
    meanY /= totalWeight
    var sxx = 0.0
    var sxy = 0.0
    for (sample, weight) in zip(chosen, weights) {
      let dx = sample.hostMid - reference - meanX
      sxx += weight * dx * dx
      sxy += weight * dx * (sample.boardSeconds - meanY)
    }
    // Drift is only trusted over a span of at least 0.5 s; before that assume none.
    let span = (chosen.map(\.hostMid).max() ?? 0) - (chosen.map(\.hostMid).min() ?? 0)
    let fitted = chosen.count >= 3 && span >= 0.5 && sxx > 0
    slope = fitted ? sxy / sxx : 1
    slope = min(max(slope, 1 - 0.01), 1 + 0.01)  // a crystal is never 1 % off
    intercept = meanY - slope * meanX
    // The slope's standard error from the weighted residuals (n − 2 degrees of freedom; the
    // weights are the samples' relative precisions, their scale taken from the residuals).
    if fitted && chosen.count >= 4 {
      var residuals = 0.0
      var squares = 0.0
      for (sample, weight) in zip(chosen, weights) {
        let r = sample.boardSeconds - (intercept + slope * (sample.hostMid - reference))
        residuals += weight * r * r
        squares += r * r
      }
      let degreesOfFreedom = Double(chosen.count) - 2
      slopeError = ((residuals / degreesOfFreedom / sxx).squareRoot(), chosen.count - 2)
      residual = (squares / degreesOfFreedom).squareRoot()
    } else {
      slopeError = nil
      residual = nil
    }
  }

  /// The least round trip a weight counts (seconds): a faster one weighs as much as this.
  static let weightFloor = 50e-6

  /// The board time in seconds at host time `t`.
  public func boardSeconds(atHost t: Double) -> Double {
    guard let reference else { return t }
    return intercept + slope * (t - reference)
  }

  /// The board time in ticks at host time `t`.
  public func boardTicks(atHost t: Double) -> Double {
    boardSeconds(atHost: t) * clockFrequency
  }

  /// The host time at which the board clock reads `ticks`.
  public func hostTime(atBoardTicks ticks: Double) -> Double {
    guard let reference else { return ticks / clockFrequency }
    return reference + (ticks / clockFrequency - intercept) / slope
  }

  /// Extends a 32-bit board time to 64 bits, taking the value nearest the last full reading.
  public func extend(_ ticks32: UInt32) -> UInt64 {
    let base = lastTicks & ~0xFFFF_FFFF
    var candidate = base | UInt64(ticks32)
    let half: UInt64 = 1 << 31
    if candidate > lastTicks + half && candidate >= (1 << 32) { candidate -= 1 << 32 }
    if candidate + half < lastTicks { candidate += 1 << 32 }
    return candidate
  }
}
