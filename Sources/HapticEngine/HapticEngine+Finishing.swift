import Dispatch
import Foundation
import HapticCore
import HapticLocks

extension HapticEngine {
  /// Calls `handler` once every player has finished (at once, on another thread, if none
  /// plays); it returns whether to stop the engine. Several handlers given before the players
  /// finish are all called, in order; the engine stops (and the stopped handler gets
  /// ``HapticEngineStoppedReason/notifyWhenFinished``) if any of them asks for it.
  public func notifyWhenPlayersFinished(
    _ handler: @escaping @Sendable ((any Error)?) -> HapticEngineFinishedAction
  ) {
    wait(notify: handler)
  }

  /// Stops the engine once what was started has finished playing, then calls
  /// `completionHandler` (Core Haptics' `stop(completionHandler:)`: a transient played just
  /// before it is heard). The stopped handler is not called. On a stopped engine the handler
  /// is called at once, on another thread. ``stop()`` stops at once instead.
  public func stop(completionHandler: (@Sendable ((any Error)?) -> Void)?) {
    wait(stop: .some(completionHandler))
  }

  /// Queues `waiter` until every player has finished, or runs it now when none plays.
  private func wait(
    notify: (@Sendable ((any Error)?) -> HapticEngineFinishedAction)? = nil,
    stop: (@Sendable ((any Error)?) -> Void)?? = nil
  ) {
    let idle = state.withLock { state -> Bool in
      guard state.running, state.playing || (stop != nil && !(state.scheduler?.isQuiet ?? true)) else { return true }
      if let notify { state.finishHandlers.append(notify) }
      if let stop { state.stopRequests.append(stop) }
      return false
    }
    guard idle else { return }
    DispatchQueue.global().async { [self] in
      finish(notify: notify.map { [$0] } ?? [], stops: stop.map { [$0] } ?? [])
    }
  }

  /// Runs what waited for the players to finish: the `notifyWhenPlayersFinished` handlers in
  /// order, then, if any asked for it or a `stop(completionHandler:)` was waiting, one stop,
  /// the stop requests' handlers and (for the notify case) the stopped handler.
  func finish(
    notify: [@Sendable ((any Error)?) -> HapticEngineFinishedAction],
    stops: [(@Sendable ((any Error)?) -> Void)?]
  ) {
    var stopNotified = false
    for handler in notify where handler(nil) == .stopEngine { stopNotified = true }
    guard stopNotified || !stops.isEmpty else { return }
    let wasRunning = isRunning
    if wasRunning { stop() }
    for handler in stops { handler?(nil) }
    if wasRunning && stopNotified { state.withLock { $0.handlers.stopped }?(.notifyWhenFinished) }
  }
}
