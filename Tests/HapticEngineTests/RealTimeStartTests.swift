import Foundation
import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import Testing

@testable import HapticEngine

/// Starting a player on an engine that has been idle, in real time: the scheduler loop sleeps
/// the idle period (50 ms) then, longer than the drive a start queues (guard + lookahead), so
/// the start must wake it — else the board's queue runs dry a few frames in and it counts an
/// underrun (found over a pty at 115 200 baud: one underrun per `send`).
@Suite struct RealTimeStartTests {
  @Test(.timeLimit(.minutes(1))) func startsOnAnIdleEngineNeverRunDry() throws {
    let link = try SimulatorBoardLink(configuration: SimulatorConfiguration(profile: .unoDRV2605L), clock: .realTime)
    let engine = try HapticEngine(link: link)
    try engine.start()
    defer { engine.stop() }
    let pattern = HapticPattern(events: [EngineHarness.continuous(0.12, intensity: 0.8)])
    for _ in 0..<10 {
      // Idle long enough for the loop to be on its idle period.
      usleep(120_000)
      let player = try engine.makePlayer(with: pattern)
      try player.start()
      usleep(180_000)
      withExtendedLifetime(player) {}
    }
    let report = engine.reportWithBoardStatus(timeout: 0.5)
    #expect(report.boardUnderruns == 0, "board underruns \(report.boardUnderruns), late \(report.lateSegments)")
    #expect(report.lateSegments == 0)
  }
}
