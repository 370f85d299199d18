import Foundation
import HapticCore
import HapticTestSupport
import HapticWire
import Testing

@Suite("Clock sync")
struct ClockSyncTests {
  /// A board clock with an offset and a drift, queried over a jittery, asymmetric line.
  static func converge(driftPPM: Double, seed: UInt64) -> (errors: [Double], sync: ClockSync) {
    var rng = SplitMix(seed: seed)
    func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    let frequency = 1_000_000.0
    let offset = 12.345
    func board(atHost t: Double) -> Double { (offset + t * (1 + driftPPM * 1e-6)) * frequency }
    var sync = ClockSync(clockFrequency: frequency)
    var errors: [Double] = []
    var t = 0.0
    for _ in 0..<400 {
      // 100–300 µs base each way, plus exponential jitter (mean 400 µs) on each leg.
      let up = 0.0001 + 0.0002 * uniform() - 0.0004 * log(1 - uniform())
      let down = 0.0001 + 0.0002 * uniform() - 0.0004 * log(1 - uniform())
      let ticks = UInt64(board(atHost: t + up))
      sync.add(hostSend: t, hostReceive: t + up + down, boardTicks: ticks)
      let probe = t + 0.02
      errors.append(abs(sync.boardTicks(atHost: probe) - board(atHost: probe)) / frequency)
      t += 0.05
    }
    return (errors, sync)
  }

  /// A probe's second of queries (24, 40 ms apart) over the jittery line of ``converge``:
  /// the estimate's stated uncertainty (issue 32: a short probe's drift swung from +3269 to −302
  /// ppm without saying how uncertain it was) covers the true drift in at least 18 of 20 seeded
  /// runs, and 400 queries over 20 s state a smaller one.
  @Test("The drift estimate says how uncertain it is, and the uncertainty covers the truth")
  func driftUncertainty() {
    var covered = 0
    var shortUncertainty: [Double] = []
    for seed in 1...20 as ClosedRange<UInt64> {
      var rng = SplitMix(seed: seed)
      func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
      var sync = ClockSync(clockFrequency: 1_000_000)
      #expect(sync.driftUncertaintyPPM == nil, "nothing to tell before any sample")
      for index in 0..<24 {
        let t = Double(index) * 0.040
        let up = 0.0001 + 0.0002 * uniform() - 0.0004 * log(1 - uniform())
        let down = 0.0001 + 0.0002 * uniform() - 0.0004 * log(1 - uniform())
        sync.add(hostSend: t, hostReceive: t + up + down, boardTicks: UInt64((3 + (t + up) * (1 + 150e-6)) * 1e6))
      }
      guard let uncertainty = sync.driftUncertaintyPPM else {
        Issue.record("seed \(seed): no uncertainty after 24 samples over 0.92 s")
        continue
      }
      shortUncertainty.append(uncertainty)
      if abs(sync.driftPPM - 150) <= uncertainty { covered += 1 }
    }
    #expect(covered >= 18, "the true drift within the stated uncertainty in \(covered) of 20 runs")
    let long = Self.converge(driftPPM: 150, seed: 1).sync
    let longUncertainty = long.driftUncertaintyPPM ?? .infinity
    let median = shortUncertainty.sorted()[shortUncertainty.count / 2]
    #expect(longUncertainty < median / 10, "20 s of samples: ±\(longUncertainty), 1 s: ±\(median)")
  }

  @Test("Converges to ≤ 100 µs with ±200 ppm drift and jittery delays", arguments: [200.0, -200.0, 0.0])
  func convergence(_ drift: Double) {
    for seed in 1...5 as ClosedRange<UInt64> {
      let (errors, sync) = Self.converge(driftPPM: drift, seed: seed)
      let settled = errors.suffix(200)
      #expect(settled.max() ?? 1 <= 100e-6, "drift \(drift) seed \(seed): worst \(settled.max() ?? 0)")
      #expect(abs(sync.driftPPM - drift) < 20, "estimated drift \(sync.driftPPM)")
      // The inverse mapping agrees.
      let host = 12.0
      #expect(abs(sync.hostTime(atBoardTicks: sync.boardTicks(atHost: host)) - host) < 1e-9)
    }
  }

  /// A young fit (a rig's first second: a query every 100 ms after a 50 ms start) over a line of
  /// 0.4 ms round trips, whose last 0.3 s of answers all came back 4.6 ms late (a relay such as
  /// ser2net starved of the CPU while a rig opens its boards): the fit keeps to the fast round
  /// trips. Unweighted, the slow quarter's midpoints (2.3 ms off each) pulled the board's clock
  /// 1.9 ms off at the start that followed, and a rig's remote board played 2 ms after the others
  /// (`RigCommandTests`, 1 run in 6).
  @Test("A quarter of slow, lopsided round trips does not pull a young fit off", arguments: [100.0, -200.0])
  func slowQuarter(_ drift: Double) {
    let frequency = 1_000_000.0
    func board(atHost t: Double) -> Double { (4.2 + t * (1 + drift * 1e-6)) * frequency }
    var sync = ClockSync(clockFrequency: frequency)
    let times = [0.0, 0.05, 0.1] + (2...12).map { Double($0) * 0.1 }
    for (index, t) in times.enumerated() {
      let slow = t >= 0.9
      let up = 0.0002 + Double(index % 3) * 0.00001
      let down = slow ? 0.0048 : 0.0002
      sync.add(hostSend: t, hostReceive: t + up + down, boardTicks: UInt64(board(atHost: t + up)))
    }
    let start = 1.3
    let error = abs(sync.boardTicks(atHost: start) - board(atHost: start)) / frequency
    #expect(error <= 0.0002, "drift \(drift): the board's clock at the start is \(error * 1000) ms off")
  }

  @Test("32-bit board times extend to 64 bits across a wrap")
  func extend() {
    var sync = ClockSync(clockFrequency: 1_000_000)
    sync.add(hostSend: 0, hostReceive: 0.001, boardTicks: 0x1_FFFF_FF00)
    #expect(sync.extend(0xFFFF_FFF0) == 0x1_FFFF_FFF0)
    #expect(sync.extend(0x0000_0010) == 0x2_0000_0010)
    #expect(sync.extend(0xFFFF_0000) == 0x1_FFFF_0000)
  }
}
