#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a lock, reached only through ``withLock(_:)``: state shared between threads
/// as one struct the compiler checks (the box is `Sendable` only when its value is), the
/// swift-nio pattern (`NIOLockedValueBox`).
///
/// Why not `Synchronization.Mutex`: on Linux it locks with futexes inside the uninstrumented
/// standard library, so ThreadSanitizer sees no synchronisation and reports every access to a
/// `Mutex`'s value as a race. Two threads appending 20 000 values each to an array inside
/// `Mutex.withLock` end with all 40 000, yet `-sanitize=thread` reports a "Swift access race"
/// (Swift 6.3.1; the same program with a pthread mutex reports none). A `pthread_mutex_t`
/// is intercepted by ThreadSanitizer, so races in the project's own code stay visible.
public final class Locked<Value> {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A box holding `value`.
  public init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    let status = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, the lock held. Not reentrant: calling it again from `body`
  /// on the same box is a precondition failure (an error-checking mutex), not a deadlock.
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let status = pthread_mutex_lock(mutex)
    precondition(status == 0, "pthread_mutex_lock failed: \(status) (locked twice on one thread?)")
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

/// Every access to the value goes through `withLock`, under the mutex; the value itself must be
/// `Sendable` to cross threads, which the compiler checks.
extension Locked: @unchecked Sendable where Value: Sendable {}
