import Foundation
import HapticCore
import HapticLocks
import HapticWire
import Testing

@testable import HapticEngine

/// The engine after a board reset (docs/protocol.md §6.9 v1.1, issue 31 point 14), over the
/// emulated Uno, whose clock starts again at 0 when it resets: the reset handler is called, and
/// a new `start()` plays on the board's new clock — the old clock fit is dropped, and nothing
/// timed on the old clock reaches the board.
@Suite(
  "Engine after a board reset (emulated Uno)", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct EngineResetTests {
  static func continuous(_ duration: Double) -> HapticPattern {
    HapticPattern(events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: duration,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5)])
    ])
  }

  @Test(.timeLimit(.minutes(1))) func playsOnTheNewClockAfterAReset() throws {
    try EmulatedBoardTests.requireBuilt()
    let emulator = try EmulatorProcess()
    defer { _ = emulator.stop() }
    let link = try SerialBoardLink(port: emulator.ptyPath)
    defer { link.close(stopDrive: true) }
    let engine = try HapticEngine(link: link)
    let reset = DispatchSemaphore(value: 0)
    engine.resetHandler = { reset.signal() }
    try engine.start()
    let long = try engine.makePlayer(with: Self.continuous(3))
    try long.start(atTime: 0)
    usleep(800_000)  // the board's clock reads about 1 s more than at its boot
    kill(emulator.pid, SIGUSR1)  // a power cycle: the Uno's clock starts again at 0
    #expect(reset.wait(timeout: .now() + 5) == .success, "no reset reported")
    #expect(!engine.isRunning)

    try engine.start()  // waits for a clock fit of the new clock
    let short = try engine.makePlayer(with: Self.continuous(0.6))
    let at = engine.currentTime + 0.1
    try short.start(atTime: at)
    while engine.currentTime < at + 0.3 { usleep(5_000) }
    let asked = engine.currentTime
    let report = engine.reportWithBoardStatus(timeout: 1)
    let answered = engine.currentTime
    let status = try #require(engine.state.withLock { $0.lastStatus }, "no status")
    #expect(report.boardStatusAnswered)
    // The board's clock in the status lies between the engine's estimates around the request.
    let boardSeconds = Double(status.boardTime) / Double(engine.capabilities.clockFrequency)
    #expect(
      boardSeconds >= asked - 0.005 && boardSeconds <= answered + 0.005,
      "board clock \(boardSeconds) s, the engine's estimate \(asked)…\(answered) s")
    #expect(status.channels.first.map { $0.level != 0 } == true, "the pattern plays 0.3 s into it: \(status)")
    #expect(status.channels.first?.lateSegments == 0 && status.channels.first?.underruns == 0, "\(status)")
    engine.stop()
  }
}
