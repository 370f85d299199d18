import Foundation
import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire

/// What one player of a `send` run plays: a pattern, on every channel (nil) or on some.
struct ChannelPlay {
  var pattern: HapticPattern
  var channels: [Int]?
}

/// One `hapticctl send` run: starts the engine and the players (one per `--channel` pattern, in
/// step), applies live commands, shows progress, waits for the end (or a signal), stops the board
/// and reports.
final class SendSession: @unchecked Sendable {
  private let engine: HapticEngine
  private let options: Send
  private let lock = NSLock()
  private var finished = false
  /// Players of the run not finished yet.
  private var playing = 0
  private var failure: String?
  private var stoppedBy = "end"
  private var interrupted = false
  private var signals: SignalWatch?

  init(engine: HapticEngine, options: Send) {
    self.engine = engine
    self.options = options
  }

  /// Plays `plays` together (or the ROM effect when there is none); returns the exit status.
  func run(plays: [ChannelPlay]) -> Int32 {
    installSignalHandlers()
    engine.stoppedHandler = { [self] reason in
      lock.withLock {
        if failure == nil { failure = "the engine stopped: \(reason)" }
        finished = true
      }
    }
    // A board reset loses its queued drive and ends the run (docs/semantics.md §13.7): the
    // players are gone, no completion comes; report it and let the next run start afresh.
    engine.resetHandler = { [self] in
      lock.withLock {
        if failure == nil {
          failure = "\(engine.capabilities.boardID) reset while playing (its queued drive is lost); run again to play"
          stoppedBy = "reset"
        }
        finished = true
      }
    }
    do {
      try engine.start()
    } catch {
      printError("error: \(error.message)")
      engine.close()
      return 1
    }
    let startWall = Date()
    let outcome: (duration: Double, onsetError: Double?)
    do {
      if !plays.isEmpty {
        outcome = try play(plays)
      } else {
        outcome = try playROM()
      }
    } catch {
      printError("error: \(error.message)")
      engine.close()
      return 1
    }
    if lock.withLock({ interrupted }) {
      engine.close()
      if isatty(STDERR_FILENO) == 1 && !options.json { printError("") }
      printError("interrupted: the board was stopped")
      return 130
    }
    let wasReset = lock.withLock { stoppedBy == "reset" }
    // After a reset the board's counters started again: keep those of its last status before.
    let report = wasReset ? engine.report : engine.reportWithBoardStatus(timeout: 0.5)
    engine.close()
    if isatty(STDERR_FILENO) == 1 && !options.json { printError("") }
    if let failure = lock.withLock({ failure }) {
      if wasReset {
        print(render(report, duration: outcome.duration, wall: Date().timeIntervalSince(startWall), onset: outcome.onsetError))
      }
      printError("error: \(failure)")
      return 1
    }
    print(render(report, duration: outcome.duration, wall: Date().timeIntervalSince(startWall), onset: outcome.onsetError))
    return 0
  }

  /// Board seconds ahead that several players (or a player and its seek) are started at, so
  /// that they start in step.
  static let inStepLead = 0.1

  private func play(_ plays: [ChannelPlay]) throws(HapticEngineError) -> (duration: Double, onsetError: Double?) {
    var players: [HapticAdvancedPatternPlayer] = []
    lock.withLock { playing = plays.count }
    for play in plays {
      let player = try engine.makeAdvancedPlayer(with: play.pattern, channels: play.channels)
      player.loopEnabled = options.loop
      player.loopEnd = options.loopEnd
      player.playbackRate = options.rate
      player.completionHandler = { [self] error in
        lock.withLock {
          if let error, failure == nil { failure = "\(error)" }
          playing -= 1
          if playing == 0 || error != nil { finished = true }
        }
      }
      players.append(player)
    }
    // One start time for all: several players start on the same board frame, and a seek takes
    // effect on the start's frame (given "now", it would come a frame or two after the start,
    // and the pattern's first moment would play).
    let now = engine.currentTime
    let requested =
      options.at > 0 ? now + options.at : players.count > 1 || options.seek > 0 ? now + Self.inStepLead : 0
    for player in players {
      try player.start(atTime: requested)
      if options.seek > 0 { try player.seek(toOffset: options.seek, atTime: requested) }
    }
    let start = players.first?.startTime ?? now
    if options.live { startLiveReader(players) }
    let length = ((plays.map(\.pattern.duration).max() ?? 0) - options.seek) / options.rate
    let progress = isatty(STDERR_FILENO) == 1 && !options.json
    while !lock.withLock({ finished || interrupted }) {
      usleep(50_000)
      if progress { drawProgress(elapsed: engine.currentTime - start, total: max(length, 0)) }
    }
    if lock.withLock({ interrupted }) { for player in players { try? player.stop() } }
    return (max(engine.currentTime - start, 0), onsetError(plays, start: start))
  }

  /// The largest difference between where an event's first drive frame landed and where the
  /// pattern puts it (board time). On the in-process simulator it is measured from the
  /// board's drive log; on a serial board it is the frame rounding plus the clock-sync
  /// uncertainty (half the fastest round trip), the most a start can be off.
  private func onsetError(_ plays: [ChannelPlay], start: Double) -> Double? {
    let period = engine.profile.framePeriod
    guard let link = engine.link as? SimulatorBoardLink else {
      return period / 2 + engine.link.clockUncertainty
    }
    let board = link.snapshot
    let frequency = Double(engine.capabilities.clockFrequency)
    var worst = 0.0
    var measured = 0
    let onsets = plays.flatMap { play in
      play.pattern.events.filter { $0.type.isHaptic && $0.time >= options.seek }.map { (time: ($0.time - options.seek) / options.rate, channels: play.channels) }
    }
    for expected in onsets.sorted(by: { $0.time < $1.time }).prefix(64) {
      let target = start + expected.time
      // The first drive change of its channels to a non-zero level within a frame of where the
      // event belongs.
      guard let change = board.driveLog.first(where: { change in
        change.level != 0 && (expected.channels?.contains(change.channel) ?? true)
          && abs(Double(board.boardTicks(at: change.time)) / frequency - target) <= 2 * period
      }) else { continue }
      worst = max(worst, abs(Double(board.boardTicks(at: change.time)) / frequency - target))
      measured += 1
    }
    // No onset found (nothing drove, or the board kept no log): unknown, not 0.
    return measured > 0 ? worst : nil
  }

  private func playROM() throws(HapticEngineError) -> (duration: Double, onsetError: Double?) {
    guard engine.capabilities.features.contains(.romEffects) else {
      throw HapticEngineError(
        .notSupported, "\(engine.capabilities.boardID) has no driver ROM effects (only DRV2605 boards do)")
    }
    let period = engine.profile.framePeriod
    let start = engine.currentTime + 0.01
    let ticks = UInt64((start / period).rounded()) * UInt64((period * Double(engine.capabilities.clockFrequency)).rounded())
    try engine.link.send(
      .playROMEffect(
        channel: 0, library: UInt8(options.library), effect: UInt8(options.rom ?? 1),
        startTime: UInt32(truncatingIfNeeded: ticks)))
    // ROM effects last well under a second; wait for it to play out (or a signal).
    let deadline = Date().addingTimeInterval(0.6)
    while Date() < deadline && !lock.withLock({ interrupted }) { usleep(20_000) }
    return (0.6, nil)
  }

  private func startLiveReader(_ players: [HapticAdvancedPatternPlayer]) {
    let thread = Thread { [self] in
      while let line = readLine() {
        if lock.withLock({ finished || interrupted }) { return }
        let words = line.split(separator: " ").map(String.init)
        guard let command = words.first else { continue }
        do {
          if try LiveCommand.apply(command, words.dropFirst().first, to: players) {
            lock.withLock {
              stoppedBy = "stop"
              finished = true
            }
            return
          }
        } catch {
          printError("live: \(error)")
        }
      }
    }
    thread.name = "send --live"
    thread.start()
  }

  private func installSignalHandlers() {
    signals = SignalWatch([SIGINT, SIGTERM]) { [self] _ in
      lock.withLock {
        interrupted = true
        stoppedBy = "signal"
      }
    }
  }


  private func drawProgress(elapsed: Double, total: Double) {
    let report = engine.report
    let fraction = total > 0 ? min(max(elapsed / total, 0), 1) : 1
    let width = 30
    let filled = Int((fraction * Double(width)).rounded())
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    let totalText = options.loop ? "loop" : Decimal6.string(total, digits: 2) + " s"
    var stderr = StandardError()
    print(
      "\r[\(bar)] \(Decimal6.string(max(elapsed, 0), digits: 2)) / \(totalText)  underruns \(report.underruns)",
      terminator: "", to: &stderr)
  }

  private func render(_ report: HapticEngine.Report, duration: Double, wall: Double, onset: Double?) -> String {
    let underruns = report.underruns + report.boardUnderruns
    let board = engine.capabilities.boardID
    if options.json {
      return JSONText.object([
        ("board", .string(board)),
        ("source", .string(options.source)),
        ("duration_s", .fixed(duration, digits: 4)),
        ("frames", .int(report.framesRendered)),
        ("segments", .int(report.segments)),
        ("wire_bytes", .int(report.wireBytes)),
        ("retransmits", .int(report.retransmissions)),
        ("recoveries", .int(report.recoveries)),
        ("lookahead_ms", .fixed(report.lookahead * 1000, digits: 1)),
        ("underruns", .int(underruns)),
        ("late_segments", .int(report.lateSegments)),
        ("max_onset_error_ms", onset.map { .fixed($0 * 1000, digits: 3) } ?? .null),
        ("stopped_by", .string(lock.withLock { stoppedBy })),
        ("wall_s", .fixed(wall, digits: 3)),
      ]).rendered
    }
    let onsetText = onset.map { Decimal6.string($0 * 1000, digits: 3) + " ms" } ?? "n/a"
    return "played on \(board): \(Decimal6.string(duration, digits: 3)) s, \(report.framesRendered) frames, "
      + "\(report.wireBytes) wire bytes, \(report.retransmissions) retransmits, \(underruns) underruns, "
      + "\(report.lateSegments) late segments, lookahead up to \(Decimal6.string(report.lookahead * 1000, digits: 1)) ms, "
      + "max onset error \(onsetText)"
  }
}
