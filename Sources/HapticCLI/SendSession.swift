import Dispatch
import Foundation
import HapticCore
import HapticEngine
import HapticRenderer
import HapticSimulator
import HapticWire

/// One `hapticctl send` run: starts the engine and the player, applies live commands, shows
/// progress, waits for the end (or a signal), stops the board and reports.
final class SendSession: @unchecked Sendable {
  private let engine: HapticEngine
  private let options: Send
  private let lock = NSLock()
  private var finished = false
  private var failure: String?
  private var stoppedBy = "end"
  private var interrupted = false
  private var signalSources: [any DispatchSourceSignal] = []

  init(engine: HapticEngine, options: Send) {
    self.engine = engine
    self.options = options
  }

  /// Plays `pattern` (or the ROM effect); returns the exit status.
  func run(pattern: HapticPattern?) -> Int32 {
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
      if let pattern {
        outcome = try play(pattern)
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

  private func play(_ pattern: HapticPattern) throws(HapticEngineError) -> (duration: Double, onsetError: Double?) {
    let player = try engine.makeAdvancedPlayer(with: pattern)
    player.loopEnabled = options.loop
    player.loopEnd = options.loopEnd
    player.playbackRate = options.rate
    player.completionHandler = { [self] error in
      lock.withLock {
        if let error, failure == nil { failure = "\(error)" }
        finished = true
      }
    }
    let requested = options.at > 0 ? engine.currentTime + options.at : 0
    let callTime = engine.currentTime
    try player.start(atTime: requested)
    if options.seek > 0 { try player.seek(toOffset: options.seek, atTime: requested) }
    let start = player.startTime ?? callTime
    if options.live { startLiveReader(player) }
    let length = max(pattern.duration - options.seek, 0) / options.rate
    let progress = isatty(STDERR_FILENO) == 1 && !options.json
    while !lock.withLock({ finished || interrupted }) {
      usleep(50_000)
      if progress { drawProgress(elapsed: engine.currentTime - start, total: length) }
    }
    if lock.withLock({ interrupted }) { try? player.stop() }
    return (max(engine.currentTime - start, 0), onsetError(pattern, start: start))
  }

  /// The largest difference between where an event's first drive frame landed and where the
  /// pattern puts it (board time). On the in-process simulator it is measured from the
  /// board's drive log; on a serial board it is the frame rounding plus the clock-sync
  /// uncertainty (half the fastest round trip), the most a start can be off.
  private func onsetError(_ pattern: HapticPattern, start: Double) -> Double? {
    let period = engine.profile.framePeriod
    guard let link = engine.link as? SimulatorBoardLink else {
      return period / 2 + engine.link.clockUncertainty
    }
    let board = link.snapshot
    let frequency = Double(engine.capabilities.clockFrequency)
    var worst = 0.0
    var measured = 0
    let onsets = pattern.events.filter { $0.type.isHaptic && $0.time >= options.seek }.map { ($0.time - options.seek) / options.rate }
    for expected in onsets.sorted().prefix(64) {
      let target = start + expected
      // The first drive change to a non-zero level within a frame of where the event belongs.
      guard let change = board.driveLog.first(where: { change in
        change.level != 0 && abs(Double(board.boardTicks(at: change.time)) / frequency - target) <= 2 * period
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

  private func startLiveReader(_ player: HapticAdvancedPatternPlayer) {
    let thread = Thread { [self] in
      while let line = readLine() {
        if lock.withLock({ finished || interrupted }) { return }
        let words = line.split(separator: " ").map(String.init)
        guard let command = words.first else { continue }
        do {
          if try LiveCommand.apply(command, words.dropFirst().first, to: player) {
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
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    for number in [SIGINT, SIGTERM] {
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [self] in
        lock.withLock {
          interrupted = true
          stoppedBy = "signal"
        }
      }
      source.resume()
      signalSources.append(source)
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
        ("source", .string(options.file ?? options.preset ?? "rom \(options.rom ?? 0)")),
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

/// The `--live` commands.
enum LiveCommand {
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// Applies one command; returns true for `stop`.
  static func apply(_ command: String, _ argument: String?, to player: HapticAdvancedPatternPlayer) throws -> Bool {
    func value() throws -> Double {
      guard let argument, let number = Double(argument), number.isFinite else {
        throw Problem(description: "'\(command)' needs a number, e.g. '\(command) 0.5'")
      }
      return number
    }
    let controls: [String: DynamicParameterID] = [
      "intensity": .hapticIntensityControl, "sharpness": .hapticSharpnessControl,
      "attack": .hapticAttackTimeControl, "decay": .hapticDecayTimeControl, "release": .hapticReleaseTimeControl,
    ]
    if let id = controls[command] {
      try player.sendParameters([DynamicParameter(id, value: try value(), time: 0)])
      return false
    }
    switch command {
    case "pause": try player.pause()
    case "resume": try player.resume()
    case "seek": try player.seek(toOffset: try value())
    case "stop":
      try player.stop()
      return true
    default:
      throw Problem(
        description: "unknown command '\(command)' (intensity X, sharpness X, attack X, decay X, release X, pause, resume, seek S, stop)")
    }
    return false
  }
}
