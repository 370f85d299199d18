import Foundation
import HapticLocks
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
final class SendSession: Sendable {
  private let engine: HapticEngine
  private let options: Send
  /// What the handlers (engine, signal and live-command threads) and the run share.
  private let state = Locked(RunState())

  private struct RunState: Sendable {
    var finished = false
    /// Players of the run not finished yet.
    var playing = 0
    var failure: String?
    var stoppedBy = "end"
    /// When the board's reset was reported (system uptime, seconds).
    var resetUptime: Double?
    var interrupted = false
    var signals: SignalWatch?
  }

  init(engine: HapticEngine, options: Send) {
    self.engine = engine
    self.options = options
  }

  /// Plays `plays` together (or the ROM effect when there is none); returns the exit status.
  func run(plays: [ChannelPlay]) -> Int32 {
    installSignalHandlers()
    engine.stoppedHandler = { [state] reason in
      state.withLock { state in
        if state.failure == nil { state.failure = "the engine stopped: \(reason)" }
        state.finished = true
      }
    }
    // A board reset loses its queued drive and ends the run (docs/semantics.md §13.7): the
    // players are gone, no completion comes; report it and let the next run start afresh.
    let board = engine.capabilities.boardID
    engine.resetHandler = { [state] in
      state.withLock { state in
        if state.failure == nil {
          state.failure = "\(board) reset while playing (its queued drive is lost); run again to play"
          state.stoppedBy = "reset"
          state.resetUptime = ProcessInfo.processInfo.systemUptime
        }
        state.finished = true
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
    let outcome: PlayOutcome
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
    if state.withLock({ $0.interrupted }) {
      engine.close()
      if isatty(STDERR_FILENO) == 1 && !options.json { printError("") }
      printError("interrupted: the board was stopped")
      return 130
    }
    let wasReset = state.withLock { $0.stoppedBy == "reset" }
    // After a reset the board's counters started again: keep those of its last status before.
    let report = wasReset ? engine.report : engine.reportWithBoardStatus(timeout: 1)
    // The drive came to rest where the engine's render did; a reset ended it where the run
    // ended (the board lost what it had queued).
    var drive = outcome.start.map { start in max((report.driveEnd ?? start) - start, 0) }
    if wasReset, let played = drive, let start = outcome.start { drive = min(played, max(outcome.ended - start, 0)) }
    let onsets = outcome.start.map { start in
      OnsetMeasurement.measure(
        outcome.plays, start: start, seek: options.seek, rate: options.rate, engine: engine, report: report, wasReset: wasReset)
    }
    engine.close()
    if isatty(STDERR_FILENO) == 1 && !options.json { printError("") }
    let sent = SendReport(
      board: board, source: options.source, engine: report, patternDuration: outcome.patternDuration,
      driveDuration: drive, wall: Date().timeIntervalSince(startWall),
      onsets: onsets ?? OnsetMeasurement(error: nil, basis: "not measured: a ROM effect is timed by the driver"),
      stoppedBy: state.withLock { $0.stoppedBy })
    if let failure = state.withLock({ $0.failure }) {
      if wasReset { print(options.json ? sent.json : sent.line) }
      printError("error: \(failure)")
      return 1
    }
    print(options.json ? sent.json : sent.line)
    return 0
  }

  /// Board seconds ahead that several players (or a player and its seek) are started at, so
  /// that they start in step.
  static let inStepLead = 0.1

  /// How a run went: its start and end (board seconds; no start for a ROM effect), the
  /// pattern's duration, and what was played (the events the onset error is measured for).
  private struct PlayOutcome {
    var start: Double?
    var ended: Double
    var patternDuration: Double?
    var plays: [ChannelPlay] = []
  }

  private func play(_ plays: [ChannelPlay]) throws(HapticEngineError) -> PlayOutcome {
    var players: [HapticAdvancedPatternPlayer] = []
    state.withLock { $0.playing = plays.count }
    for play in plays {
      let player = try engine.makeAdvancedPlayer(with: play.pattern, channels: play.channels)
      player.loopEnabled = options.loop
      player.loopEnd = options.loopEnd
      player.playbackRate = options.rate
      player.completionHandler = { [state] error in
        state.withLock { state in
          if let error, state.failure == nil { state.failure = "\(error)" }
          state.playing -= 1
          if state.playing == 0 || error != nil { state.finished = true }
        }
      }
      players.append(player)
    }
    // One start time for all: several players start on the same board frame, and a seek takes
    // effect on the start's frame (given "now", it would come a frame or two after the start,
    // and the pattern's first moment would play).
    let now = engine.currentTime
    let nowUptime = ProcessInfo.processInfo.systemUptime
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
    while !state.withLock({ $0.finished || $0.interrupted }) {
      usleep(50_000)
      if progress { drawProgress(elapsed: engine.currentTime - start, total: max(length, 0)) }
    }
    if state.withLock({ $0.interrupted }) { for player in players { try? player.stop() } }
    // After a reset the board's clock is unknown (its fit was dropped: the board's may have
    // started again): the run ended when the reset was reported, on the run's clock.
    let ended = state.withLock { $0.resetUptime }.map { now + $0 - nowUptime } ?? engine.currentTime
    return PlayOutcome(start: start, ended: ended, patternDuration: plays.map(\.pattern.duration).max(), plays: plays)
  }

  private func playROM() throws(HapticEngineError) -> PlayOutcome {
    try engine.playROMEffect(options.rom ?? 1, library: options.library)
    // ROM effects last well under a second; wait for it to play out (or a signal).
    let deadline = Date().addingTimeInterval(0.6)
    while Date() < deadline && !state.withLock({ $0.interrupted }) { usleep(20_000) }
    return PlayOutcome(start: nil, ended: engine.currentTime, patternDuration: nil)
  }

  private func startLiveReader(_ players: [HapticAdvancedPatternPlayer]) {
    LiveCommand.startReader(
      players, name: "send --live", isOver: { [state] in state.withLock { $0.finished || $0.interrupted } },
      stopped: { [state] in
        state.withLock { state in
          state.stoppedBy = "stop"
          state.finished = true
        }
      })
  }

  private func installSignalHandlers() {
    let watch = SignalWatch([SIGINT, SIGTERM]) { [state] _ in
      state.withLock { state in
        state.interrupted = true
        state.stoppedBy = "signal"
      }
    }
    state.withLock { $0.signals = watch }
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
}
