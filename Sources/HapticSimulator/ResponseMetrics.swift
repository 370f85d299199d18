/// What a channel's simulated response adds up to (`hapticctl simulate --format summary`).
public struct ResponseMetrics: Sendable, Hashable {
  /// Largest |acceleration|, G.
  public var peak = 0.0
  /// Root mean square acceleration over the whole simulation, G.
  public var rms = 0.0
  /// From the start of the first frame with positive drive to the envelope first reaching 90 %
  /// of its peak, ms (`nil` without drive or response).
  public var riseMilliseconds: Double?
  /// From the end of the last frame with positive drive (braking counts as part of stopping)
  /// to the envelope falling for good below the detection threshold, ms.
  public var stopMilliseconds: Double?
  /// Simulated seconds (including the ring-down tail).
  public var duration = 0.0
}

/// Measures ``ResponseMetrics`` while a simulation runs, one channel each.
///
/// The envelope is the line through the successive peaks of |acceleration| (one per half
/// cycle), which works for any drive frequency and for an ERM's speed-dependent frequency.
public struct ResponseAnalyzer: SimulationTrace, Sendable {
  /// Acceleration below which a vibration is not felt (docs/semantics.md: 0.026 G).
  public static let detectionThreshold = 0.026

  private struct Channel: Sendable {
    var sumSquares = 0.0
    var samples = 0
    var peak = 0.0
    var driveStart: Double?
    var driveEnd: Double?
    var previousDrive = 0.0
    // Local-maximum detection on |a|.
    var last = 0.0
    var lastTime = 0.0
    var rising = false
    var peaks: [(time: Double, value: Double)] = []
    /// The last time |acceleration| was at or above the detection threshold.
    var lastFelt = 0.0
  }

  private var channels: [Channel]
  private var timeStep: Double
  private var endTime = 0.0

  /// An analyzer for `channels` channels at `stepRate` physics steps per second.
  public init(channels: Int, stepRate: Double) {
    self.channels = Array(repeating: Channel(), count: channels)
    timeStep = 1 / stepRate
  }

  public mutating func record(time: Double, channel index: Int, drive: Double, acceleration: Double) {
    endTime = time
    let value = abs(acceleration)
    channels[index].sumSquares += acceleration * acceleration
    channels[index].samples += 1
    if value > channels[index].peak { channels[index].peak = value }
    if value >= Self.detectionThreshold { channels[index].lastFelt = time }
    let stepStart = time - timeStep
    if drive > 0 {
      if channels[index].driveStart == nil { channels[index].driveStart = stepStart }
      channels[index].driveEnd = time
    }
    if value >= channels[index].last {
      channels[index].rising = true
    } else if channels[index].rising {
      channels[index].peaks.append((channels[index].lastTime, channels[index].last))
      channels[index].rising = false
    }
    channels[index].last = value
    channels[index].lastTime = time
  }

  /// The metrics of every channel so far.
  public var metrics: [ResponseMetrics] {
    channels.map { channel in
      var result = ResponseMetrics()
      result.peak = channel.peak
      result.rms = channel.samples > 0 ? (channel.sumSquares / Double(channel.samples)).squareRoot() : 0
      result.duration = endTime
      var peaks = channel.peaks
      if channel.rising { peaks.append((channel.lastTime, channel.last)) }
      guard let start = channel.driveStart, let end = channel.driveEnd, let top = peaks.map(\.value).max(), top > 0
      else { return result }
      // Rise: the first crossing of 90 % of the envelope's peak, interpolated between peaks.
      let target = 0.9 * top
      if let index = peaks.firstIndex(where: { $0.value >= target }) {
        let crossing = Self.crossing(peaks, index, target)
        result.riseMilliseconds = max(crossing - start, 0) * 1000
      }
      // Stop: after the last peak at or above the threshold, where the envelope falls below it.
      let threshold = Self.detectionThreshold
      if let index = peaks.lastIndex(where: { $0.value >= threshold }) {
        // With no peak after it (an ERM braked to a standstill within its half cycle, where the
        // next peak never comes), the envelope fell with the signal itself: the last time
        // |acceleration| reached the threshold (was: the end of the simulation, 40.6 ms after
        // `uno-hbridge`'s sharp ERM click instead of the 11.9 ms it rings).
        let crossing = index + 1 < peaks.count ? Self.crossing(peaks, index + 1, threshold) : channel.lastFelt
        result.stopMilliseconds = max(crossing - end, 0) * 1000
      } else {
        result.stopMilliseconds = 0
      }
      return result
    }
  }

  /// Where the line between peak `index − 1` and peak `index` crosses `level`.
  private static func crossing(
    _ peaks: [(time: Double, value: Double)], _ index: Int, _ level: Double
  ) -> Double {
    guard index > 0 else { return peaks[index].time }
    let (t0, v0) = peaks[index - 1]
    let (t1, v1) = peaks[index]
    guard v1 != v0 else { return t1 }
    let fraction = min(max((level - v0) / (v1 - v0), 0), 1)
    return t0 + fraction * (t1 - t0)
  }
}
