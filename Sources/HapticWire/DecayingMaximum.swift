/// The largest recent sample of a quantity: a new sample above the current value replaces it;
/// otherwise it falls as `peak / (1 + age / halfLife)`: half after ``halfLife`` seconds, a
/// third after two. It answers "how bad has it been
/// lately" — rising at once, forgetting slowly — as the engine's lookahead needs of the link's
/// delivery delay (docs/protocol.md §8).
public struct DecayingMaximum: Sendable, Hashable {
  /// Seconds for the value to fall to half without larger samples.
  public let halfLife: Double
  private var peak = 0.0
  private var peakTime = 0.0

  /// Creates an empty maximum (value 0).
  public init(halfLife: Double) {
    self.halfLife = halfLife.isFinite && halfLife > 0 ? halfLife : 1
  }

  /// The value at time `now` (seconds, the samples' clock).
  public func value(at now: Double) -> Double {
    guard peak > 0 else { return 0 }
    let age = max(now - peakTime, 0)
    return peak / (1 + age / halfLife)
  }

  /// Records a sample taken at `now`.
  public mutating func record(_ sample: Double, now: Double) {
    guard sample.isFinite, sample >= 0, sample > value(at: now) else { return }
    peak = sample
    peakTime = now
  }
}
