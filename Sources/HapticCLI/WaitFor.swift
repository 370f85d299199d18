import Foundation
import HapticLocks

/// Runs `body` on the concurrency pool and waits for it on this thread (the commands are
/// synchronous; the server client is async): its value or its error.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
  let outcome = Locked<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      let value = try await body()
      outcome.withLock { $0 = .success(value) }
    } catch {
      outcome.withLock { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  // The task signals only after setting the outcome.
  return outcome.withLock { $0 }!
}
