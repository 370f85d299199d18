import Foundation
import HapticCore
import HapticSimulator
import HapticWire
import HapticLocks
import Testing

@testable import HapticEngine

/// One ordered path per board, over the real serial path (a pseudo-terminal to the simulator
/// served on its own thread): frames leave in the order they were numbered, and no batch
/// computed before a change reaches the board after it, whatever thread sends.
@Suite(.serialized) struct ThreadedLinkTests {
  /// Sends from several threads at once: the board must see every frame in order (no NAK, no
  /// frame dropped as early) and the host must recover from nothing. Before the fix a sender
  /// numbered a frame under the link's lock and wrote it after unlocking, so two senders could
  /// number N and N+1 and write N+1 first.
  @Test(.timeLimit(.minutes(1))) func framesLeaveInTheOrderTheyWereNumbered() throws {
    let board = try ThreadedBoard()
    defer { board.close() }
    let link = try board.link(writeDelay: 0.000_2)
    defer { link.close(stopDrive: true) }
    let senders = 4
    let each = 150
    let failures = Recorder<String>()
    let group = DispatchGroup()
    for sender in 0..<senders {
      group.enter()
      Thread {
        for _ in 0..<each {
          do { try link.send(.heartbeat) } catch { failures.append("sender \(sender): \(error)") }
          // Room in the window: most frames are written by their sender, not queued.
          usleep(UInt32.random(in: 100...600))
        }
        group.leave()
      }.start()
    }
    group.wait()
    // Everything sent is delivered (the window drains) before the counters are read.
    let deadline = Date().addingTimeInterval(20)
    while board.board.linkStatistics.framesDelivered < senders * each && Date() < deadline { usleep(10_000) }
    let boardLink = board.board.linkStatistics
    #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
    #expect(boardLink.framesDelivered >= senders * each, "delivered \(boardLink.framesDelivered)")
    #expect(boardLink.outOfOrderDropped == 0, "frames that arrived ahead of their turn")
    #expect(boardLink.naksSent == 0, "NAKs the board sent")
    #expect(link.statistics.recoveries == 0, "recoveries on a line that lost nothing")
    #expect(board.board.counters.badFrames == 0, "frames cut into each other")
  }

  /// A 40 s pattern of 1 s on, 1 s off; seeks from one thread, parameter replaces from another
  /// (as fast as they go), the loop streaming, then a stop from a third. Every seek into a
  /// silent second must leave the board silent from the seek on (a refill computed before the
  /// seek and sent after it would play the old position: the ignored `send --seek`), every seek
  /// into a sounding second must drive, and after the stop nothing plays again.
  @Test(.timeLimit(.minutes(1))) func seeksAndReplacesFromSeveralThreadsPlayAsAsked() throws {
    let board = try ThreadedBoard()
    defer { board.close() }
    // A long lookahead: a stale batch would cover the 300 ms after its start, the whole window
    // checked below. A guard longer than the replacer's stall: its batches arrive in
    // time (none late, a replace of two messages included), and changes take effect 60 ms after
    // they are made.
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = 0.300
    configuration.guardTime = 0.060
    let engine = try HapticEngine(
      link: ThreadedBoard.delayed(
        try board.link(writeDelay: 0.000_5), delay: 0.002, slowThread: ("replacer", 0.025)),
      configuration: configuration)
    defer { engine.close() }
    try engine.start()
    // Seconds of drive made of 0.1 s events (a seek does not start an event mid-way).
    let events = (0..<20).flatMap { second in
      (0..<10).map { EngineHarness.continuous(0.1, intensity: 1, sharpness: 0.5, at: Double(2 * second) + Double($0) / 10) }
    }
    let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: events))
    try player.start()
    usleep(200_000)

    let replacing = Locked(true)
    // Parameter replaces whose sends stall 25 ms each (see ThreadedBoard.delayed), 5–15 ms apart:
    // most of the time one is in flight, rendered before whatever another thread changes.
    let replaces = Thread {
      Thread.current.name = "replacer"
      var value = 1.0
      while replacing.withLock({ $0 }) {
        value = value == 1 ? 0.999 : 1
        try? player.sendParameters([DynamicParameter(.hapticIntensityControl, value: value, time: 0)])
        usleep(UInt32.random(in: 5_000...15_000))
      }
    }
    replaces.start()
    // (board seconds just after the seek returned, target offset, silent there?)
    var seeks: [(after: Double, before: Double, silent: Bool)] = []
    for index in 0..<16 {
      let silent = index % 2 == 0
      let offset = Double(2 * index) + (silent ? 1.1 : 0.095)
      let before = engine.currentTime
      try player.seek(toOffset: offset)
      seeks.append((engine.currentTime, before, silent))
      usleep(250_000)
    }
    replacing.withLock { $0 = false }
    while !replaces.isFinished { usleep(1_000) }
    let stopAsked = engine.currentTime
    let stopper = Thread { try? player.stop() }
    stopper.start()
    while !stopper.isFinished { usleep(1_000) }
    let stopped = engine.currentTime
    usleep(300_000)
    let end = engine.currentTime
    let report = engine.reportWithBoardStatus(timeout: 0.5)
    let log = board.driveLog()

    // A change takes effect within the guard (60 ms here) and an LRA brakes within 20 ms after
    // it: from 85 ms after a seek returned to just before the next began.
    for (index, seek) in seeks.enumerated() {
      let until = index + 1 < seeks.count ? seeks[index + 1].before : stopAsked
      let window = (seek.after + 0.085)...until
      let spans = board.driveSpans(in: window, log: log)
      if seek.silent {
        #expect(spans.isEmpty, "seek \(index) into silence: drive at \(spans.prefix(3)) (window \(window))")
      } else {
        let driven = spans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        #expect(driven > 0.9 * (window.upperBound - window.lowerBound), "seek \(index) into drive: driven \(driven) s of \(window)")
      }
    }
    let afterStop = board.driveSpans(in: (stopped + 0.085)...end, log: log)
    #expect(afterStop.isEmpty, "drive after the stop (asked at \(stopAsked)): \(afterStop.prefix(3))")
    #expect(report.replaces > 30, "replaces \(report.replaces)")
    #expect(report.recoveries == 0, "recoveries on a line that lost nothing")
    #expect(report.lateSegments == 0 && report.boardUnderruns == 0, "late \(report.lateSegments), underruns \(report.boardUnderruns)")
    #expect(board.board.linkStatistics.outOfOrderDropped == 0 && board.board.linkStatistics.naksSent == 0)
  }
}
