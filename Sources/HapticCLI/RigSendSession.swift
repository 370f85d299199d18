import Foundation
import HapticCore
import HapticEngine
import HapticLocks
import HapticRig
import HapticWire

/// One `send --rig` run: the players on their actuators started on one instant, live commands,
/// lost boards handled by the policy, the board stopped and a report per board.
final class RigSendSession: Sendable {
  private let rig: HapticRig.Rig
  private let options: Send
  private let state = Locked(RunState())
  /// Signalled whenever the run may be over (finished, interrupted): the main thread waits on it.
  private let ended = DispatchSemaphore(value: 0)

  private struct RunState: Sendable {
    var playing = 0
    var finished = false
    var interrupted = false
    var stoppedBy = "end"
    /// The first player error, with the board it came from.
    var failure: (board: String?, text: String)?
    /// Boards lost, with the reason, in the order they went (a board lost twice is here twice).
    var lost: [(board: String, reason: String)] = []
    /// Boards that came back, in order.
    var rejoined: [String] = []
    var signals: SignalWatch?
  }

  init(rig: HapticRig.Rig, options: Send) {
    self.rig = rig
    self.options = options
  }

  /// Plays `plays` on their actuators; returns the exit status (the rig is closed).
  func run(_ plays: [RigPlay]) -> Int32 {
    defer { rig.close() }
    let watch = SignalWatch([SIGINT, SIGTERM]) { [state, ended] _ in
      state.withLock {
        $0.interrupted = true
        $0.stoppedBy = "signal"
      }
      ended.signal()
    }
    state.withLock { $0.signals = watch }
    let policy = options.onBoardLoss
    rig.rejoinsLostBoards = policy == .continue
    rig.boardEventHandler = { [state, ended] board, event in
      guard case .lost(let reason) = event else {
        printError("board \(board) rejoined: it plays on in step with the others")
        state.withLock { $0.rejoined.append(board) }
        return
      }
      printError(
        "board \(board) lost: \(reason)"
          + (policy == .stop ? "; stopping the rig (--on-board-loss stop)" : "; the others play on, and it rejoins when it answers again"))
      state.withLock { state in
        state.lost.append((board, reason))
        if policy == .stop {
          state.stoppedBy = "board-loss"
          state.finished = true
          ended.signal()
        }
      }
    }
    var players: [RigPlayer] = []
    let start: Double
    do {
      for play in plays {
        let player = try rig.makePlayer(with: play.pattern, actuators: play.names)
        player.loopEnabled = options.loop
        player.loopEnd = options.loopEnd
        player.playbackRate = options.rate
        player.completionHandler = { [state, ended] error in
          state.withLock { state in
            if let error, state.failure == nil { state.failure = ((error as? RigError)?.board, "\(error)") }
            state.playing -= 1
            if state.playing == 0 { state.finished = true }
          }
          ended.signal()
        }
        players.append(player)
      }
      state.withLock { $0.playing = players.count }
      // One instant for every player on every board: the latest of the boards' earliest.
      start = try RigPlayer.start(
        zip(players, plays).map { ($0, $1.at) }, atTime: options.at > 0 ? rig.currentTime + options.at : 0)
      if options.seek > 0 {
        for (player, play) in zip(players, plays) { try player.seek(toOffset: options.seek, atTime: start + play.at) }
      }
    } catch {
      printError("error: \(error)")
      return 1
    }
    if options.live { startLiveReader(players) }
    while !state.withLock({ $0.finished || $0.interrupted }) { ended.wait() }
    let (interrupted, stoppedBy) = state.withLock { ($0.interrupted, $0.stoppedBy) }
    if interrupted || stoppedBy == "board-loss" { for player in players { player.cancel() } }
    let boardReports = rig.members.map { member -> (String, HapticEngine, HapticEngine.Report) in
      (member.entry.name, member.engine, member.engine.isRunning ? member.engine.reportWithBoardStatus(timeout: 1) : member.engine.report)
    }
    // A board still lost at the end did not play its part; one that rejoined played on.
    let stillLost = rig.members.compactMap { member in member.lost.map { (board: member.entry.name, reason: $0) } }
    rig.close()
    if interrupted {
      printError("interrupted: every board was stopped")
      return 130
    }
    let final = state.withLock { $0 }
    let sources =
      options.timeline.map { "timeline \($0) (\(plays.count) plays)" }
      ?? plays.map { "\($0.source) on \($0.names.joined(separator: ","))" }.joined(separator: "; ")
    print(report(sources: sources, start: start, boards: boardReports, lost: final.lost, rejoined: final.rejoined, stoppedBy: final.stoppedBy))
    if let board = stillLost.first {
      printError("error: board \(board.board) was lost: \(board.reason)")
      return 1
    }
    // A lost board's players end with an error; the loss is reported as such (above, or it
    // rejoined and played on).
    if let failure = final.failure, !final.lost.contains(where: { $0.board == failure.board }) {
      printError("error: \(failure.text)")
      return 1
    }
    return 0
  }

  private func report(
    sources: String, start: Double, boards: [(String, HapticEngine, HapticEngine.Report)],
    lost: [(board: String, reason: String)], rejoined: [String], stoppedBy: String
  ) -> String {
    let rigName = rig.file.name ?? rig.file.path ?? "rig"
    if options.json {
      let entries = boards.map { name, engine, report -> JSONText in
        .object([
          ("name", .string(name)), ("board", .string(engine.capabilities.boardID)),
          ("underruns", report.runUnderruns.map { .int($0) } ?? .null),
          ("late_segments", report.runLateSegments.map { .int($0) } ?? .null),
          ("board_status_answered", .bool(report.boardStatusAnswered)),
          ("retransmissions", .int(report.retransmissions)), ("recoveries", .int(report.recoveries)),
          ("lookahead_ms", .fixed(report.lookahead * 1000, digits: 1)),
          ("lost", lost.last { $0.board == name }.map { .string($0.reason) } ?? .null),
          ("rejoined", .int(rejoined.filter { $0 == name }.count)),
          ("clock_queries_per_s", engine.link.statistics.clockQueryInterval.map { .fixed(1 / $0, digits: 1) } ?? .null),
        ])
      }
      return JSONText.object([
        ("rig", .string(rigName)), ("source", .string(sources)), ("start_s", .fixed(start, digits: 6)),
        ("stopped_by", .string(stoppedBy)), ("boards", .array(entries)),
      ]).rendered
    }
    var lines = ["\(sources) on rig \(rigName): started at rig time \(Decimal6.string(start, digits: 4)) s, stopped by \(stoppedBy)"]
    for (name, engine, report) in boards {
      let times = rejoined.filter { $0 == name }.count
      let gone = (lost.last { $0.board == name }.map { "; lost: \($0.reason)" } ?? "") + (times > 0 ? ", rejoined" : "")
      lines.append(
        "  \(name) (\(engine.capabilities.boardID)): \(report.boardCountsText), "
          + "\(report.retransmissions) retransmits, lookahead \(Decimal6.string(report.lookahead * 1000, digits: 1)) ms\(gone)")
    }
    return lines.joined(separator: "\n")
  }

  private func startLiveReader(_ players: [RigPlayer]) {
    LiveCommand.startReader(
      players, name: "send --rig --live", isOver: { [state] in state.withLock { $0.finished || $0.interrupted } },
      stopped: { [state, ended] in
        state.withLock {
          $0.stoppedBy = "stop"
          $0.finished = true
        }
        ended.signal()
      })
  }
}
