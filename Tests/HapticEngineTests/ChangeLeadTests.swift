import HapticCore
import HapticEngineSimulator
import HapticSimulator
import Testing

@testable import HapticEngine

/// The guard is a least lead from the board's clock now, wherever in its frame a call falls
/// (issue 33: it counted from the current frame's start, so a 2 ms guard left 1–2 ms, and a
/// change that needed 1.0 ms to reach the board over a 1 Mbaud pty now and then arrived after
/// its frame).
@Suite struct ChangeLeadTests {
  /// Board seconds from a `sendParameters` call made `fraction` of a frame into the board's
  /// current frame to the first drive change it causes.
  func lead(guardTime: Double, fraction: Double) throws -> Double {
    let h = try EngineHarness { $0.guardTime = guardTime }
    h.run(0.1)
    let player = try h.engine.makePlayer(with: HapticPattern(events: [EngineHarness.continuous(2, intensity: 1)]))
    try player.start()
    h.run(0.2)
    // Into the frame: the board's clock `fraction` of a period past a frame's start.
    let period = h.engine.framePeriod
    let board = h.boardSeconds(h.link.hostNow)
    let into = board - (board / period).rounded(.down) * period
    h.run((fraction * period - into + period).truncatingRemainder(dividingBy: period))
    let before = h.level(at: h.link.hostNow)
    let sent = h.link.hostNow
    try player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)])
    h.run(0.05)
    let change = try #require(h.firstChange(after: sent) { $0.level != before })
    return h.boardSeconds(change) - h.boardSeconds(sent)
  }

  @Test(arguments: [0.1, 0.5, 0.9])
  func aChangeStartsAtLeastTheGuardAfterTheCall(fraction: Double) throws {
    for guardTime in [0.001, 0.002, 0.0035] {
      let lead = try lead(guardTime: guardTime, fraction: fraction)
      #expect(lead >= guardTime - 1e-9, "guard \(guardTime * 1000) ms, \(fraction) into the frame: lead \(lead * 1000) ms")
      #expect(lead < guardTime + 0.001 + 1e-9, "no more than a frame beyond the guard: \(lead * 1000) ms")
    }
  }
}
