import Foundation
import HapticLocks

#if canImport(Glibc)
  import Glibc
#endif

/// The write end of the pipe the signal handler writes each caught signal's number to (-1
/// until the first ``SignalWatch``). A global because a C signal handler captures nothing.
private nonisolated(unsafe) var signalPipeWrite: Int32 = -1

/// The process's signal handler: async-signal-safe, it only writes the number to the pipe.
private func signalCaught(_ number: Int32) {
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(signalPipeWrite, &byte, 1)
}

/// Signals a command handles itself instead of dying: each is caught by a handler installed at
/// once (`sigaction`) and delivered to `handler` on a thread of its own (the handlers only ask
/// loops to end or act; the loops stop the board themselves). Cancel it when the command is done.
///
/// Not a `DispatchSourceSignal`: on Linux those pair `SIG_IGN` with a signalfd read by
/// libdispatch's manager thread, and a process-directed signal taken by a thread that did not
/// block it is discarded. Seen: `hapticctl emulate`, started under the full test suite's load,
/// ignored a SIGTERM for 10 s until SIGKILLed (alone it stopped at once). A handler runs on
/// whichever thread takes the signal, so none is lost.
final class SignalWatch: Sendable {
  /// The signals still watched (``cancel()`` empties it).
  private let watching: Locked<Set<Int32>>
  private let handler: @Sendable (Int32) -> Void

  /// Watches `signals`, calling `handler` with the signal's number.
  init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
    watching = Locked(Set(signals))
    self.handler = handler
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      // No pipe (out of descriptors): the signals keep their default action.
      return
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let readEnd = ends[0]
    signalPipeWrite = ends[1]
    let thread = Thread { [weak self] in
      var byte: UInt8 = 0
      while read(readEnd, &byte, 1) == 1 {
        guard let self else { return }
        let number = Int32(byte)
        if self.watching.withLock({ $0.contains(number) }) { self.handler(number) }
      }
    }
    thread.name = "SignalWatch"
    thread.start()
    // A parent may have started us with these blocked (a thread's mask passes to the programs it
    // starts: the test runner's threads do): blocked, a handler never runs. This thread takes them.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in signals { sigaddset(&unblocked, number) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for number in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signalCaught($0) }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
  }

  /// Stops watching: the signals are still caught (so a late one does not kill the process
  /// mid-cleanup) but no longer reach the handler.
  func cancel() {
    watching.withLock { $0 = [] }
  }
}
