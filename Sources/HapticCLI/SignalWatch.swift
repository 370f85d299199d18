import Dispatch
import Foundation

/// Signals a command handles itself instead of dying: each is ignored by the process and
/// delivered to `handler` on a global queue (the handlers only ask loops to end or act; the
/// loops stop the board themselves). Cancel it when the command is done.
final class SignalWatch {
  private let sources: [any DispatchSourceSignal]

  /// Watches `signals`, calling `handler` with the signal's number.
  init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
    sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      return source
    }
  }

  /// Stops watching.
  func cancel() {
    sources.forEach { $0.cancel() }
  }
}
