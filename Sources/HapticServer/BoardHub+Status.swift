import Foundation
import HapticEngine
import HapticLocks
import HapticWire

/// The boards' status, asked for while they drive: a board whose watchdog stopped its drive
/// (docs/protocol.md §6.7: nothing from the server for its watchdog time — a stalled server, a
/// line that lost everything for that long) is reported to the clients as a `watchdog` board
/// event. The board latches the flag until a status reports it, so each stop is told once.
extension BoardHub {
  /// How often a driving board is asked for its status, seconds.
  static let statusPeriod = 1.0
  /// How long after its drive came to rest a board is still asked (its watchdog may have
  /// stopped the last of it), seconds.
  static let statusAfterDrive = 1.0

  /// Starts the thread that asks driving boards for their status, once per hub.
  func startStatusPolling() {
    let start = state.withLock { state -> Bool in
      defer { state.statusPolling = true }
      return !state.statusPolling
    }
    guard start else { return }
    let thread = Thread { [weak self] in
      while let hub = self, !hub.state.withLock({ $0.closed }) {
        hub.askDrivingBoards()
        Thread.sleep(forTimeInterval: Self.statusPeriod)
      }
    }
    thread.name = "BoardHub status"
    thread.start()
  }

  /// Asks each running board that drives, or drove within ``statusAfterDrive``, for its status.
  func askDrivingBoards() {
    let boards = state.withLock { $0.boards.filter { $0.state == "running" } }
    for board in boards {
      guard let end = board.engine.report.driveEnd, let now = board.link.boardSeconds(atHost: board.link.hostNow),
        now < end + Self.statusAfterDrive
      else { continue }
      board.engine.requestStatus()
    }
  }

  /// Hears board `id`'s status answers: a fired watchdog becomes a `watchdog` event.
  func watchStatus(_ engine: HapticEngine, _ id: String) {
    let watchdog = engine.capabilities.watchdogMilliseconds
    engine.statusHandler = { [weak self] status in
      guard status.watchdog == .fired else { return }
      self?.events.publish(
        .board(
          id: id, event: "watchdog",
          message: "the board's watchdog stopped its drive: it heard nothing from the server for \(watchdog) ms"))
    }
  }
}
