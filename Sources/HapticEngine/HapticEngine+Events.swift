import Foundation
import HapticCore
import HapticLocks
import HapticWire

/// What the board and its link report: failures, resets, status; and the report with a fresh
/// board status.
extension HapticEngine {
  /// Stops everything after a failure and tells the handlers.
  func fail(_ reason: HapticEngineStoppedReason, _ error: HapticEngineError) {
    let wasRunning = isRunning
    halt()
    silenceAudio()
    let (stopped, completions) = state.withLock {
      state -> ((@Sendable (HapticEngineStoppedReason) -> Void)?, [@Sendable ((any Error)?) -> Void]) in
      let list = state.players.values.compactMap { $0.invalid ? nil : $0.completion }
      for id in state.players.keys { state.players[id]?.invalid = true }
      return (state.handlers.stopped, list)
    }
    for completion in completions { completion(error) }
    if wasRunning { stopped?(reason) }
  }

  func handle(_ event: BoardLinkEvent) {
    switch event {
    case .disconnected(let reason):
      fail(.boardDisconnected, HapticEngineError(.serverInterrupted, "\(capabilities.boardID): \(reason)"))
    case .boardReset:
      guard isRunning else { return }
      halt()
      let reset = state.withLock { state -> (@Sendable () -> Void)? in
        for id in state.players.keys { state.players[id]?.invalid = true }
        return state.handlers.reset
      }
      reset?()
    }
  }

  func handle(_ message: WireMessage) {
    if case .status(let status) = message {
      let handler = state.withLock { state in
        if state.statusAtStartPending {
          state.statusAtStart = status
          state.statusAtStartPending = false
        }
        state.lastStatus = status
        state.statusCount += 1
        return state.handlers.status
      }
      handler?(status)
    }
  }

  /// Asks the board for its status (underruns, late batches); the answer updates ``report``.
  public func requestStatus() {
    try? link.send(.statusRequest)
  }

  /// ``report`` after asking the board for a fresh status, waiting for it up to `timeout`.
  public func reportWithBoardStatus(timeout: Double) -> Report {
    let before = state.withLock { $0.statusCount }
    requestStatus()
    let deadline = link.hostNow + timeout
    while state.withLock({ $0.statusCount }) == before && link.hostNow < deadline { usleep(2_000) }
    var report = report
    report.boardStatusAnswered = state.withLock { $0.statusCount } != before
    return report
  }
}
