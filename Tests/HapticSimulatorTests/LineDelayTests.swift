import Testing

@testable import HapticSimulator

/// `sim serve --delay-ms D --jitter-ms J`: each piece D ± J late, in order (issue 30: the remote
/// boards of the 8-board skew figure sit behind 2 ± 1 ms).
@Suite struct LineDelayTests {
  @Test("Each piece is due D ± J after it was sent, never before the piece sent before it")
  func dueTimes() {
    var line = LineDelay(delay: 0.002, jitter: 0.001, seed: 7)
    var last = -Double.infinity
    var draws: [Double] = []
    var t = 0.0
    for index in 0..<5_000 {
      t += index % 10 == 0 ? 0.0002 : 0.003  // bursts closer than the jitter, and gaps
      let due = line.due(sentAt: t)
      #expect(due >= last, "piece \(index) overtook the one before it")
      #expect(due - t >= 0.001 - 1e-12 && due - t <= 0.003 + 1e-12 || due == last, "piece \(index): \(due - t) s")
      if due - t > 0.001 && due != last { draws.append(due - t) }
      last = due
    }
    // The draws spread over the whole band, not one value.
    #expect((draws.min() ?? 1) < 0.0012 && (draws.max() ?? 0) > 0.0028, "\(draws.min() ?? 0)…\(draws.max() ?? 0)")
  }

  @Test("A jitter wider than the delay never makes a piece due before it was sent")
  func neverEarly() {
    var line = LineDelay(delay: 0.0005, jitter: 0.002, seed: 3)
    for step in 0..<1_000 {
      let t = Double(step) * 0.004
      #expect(line.due(sentAt: t) >= t)
    }
    #expect(!LineDelay(delay: 0, jitter: 0, seed: 1).isActive && LineDelay(delay: 0.001, jitter: 0, seed: 1).isActive)
  }
}
