import HapticCore

/// A network's one-way delay on a byte stream (`sim serve --delay-ms D --jitter-ms J`): each
/// piece is due `D ± J` after it was sent (uniform, from a seeded generator, never less than
/// 0), and never before the piece sent before it, because a stream such as TCP keeps its
/// order: a piece held back by a long draw holds back the short draws behind it.
struct LineDelay: Sendable {
  /// The mean one-way delay, seconds.
  let delay: Double
  /// The largest departure from it either way, seconds.
  let jitter: Double
  private var generator: SplitMix
  private var lastDue = -Double.infinity

  init(delay: Double, jitter: Double, seed: UInt64) {
    self.delay = delay
    self.jitter = jitter
    generator = SplitMix(seed: seed)
  }

  /// Whether it delays anything.
  var isActive: Bool { delay > 0 || jitter > 0 }

  /// When a piece sent at `t` is due at the far end (`t` itself when it delays nothing: pieces
  /// are sent in order).
  mutating func due(sentAt t: Double) -> Double {
    guard isActive else { return t }
    let draw = jitter > 0 ? (generator.unit() * 2 - 1) * jitter : 0
    let due = max(lastDue, t + max(delay + draw, 0))
    lastDue = due
    return due
  }
}
