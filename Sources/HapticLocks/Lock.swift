#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock that guards an order, not a value: the steps taken while holding it happen one
/// after another (``HapticEngine``'s board order, a connection's wire order).
///
/// Apart from ``Locked`` because `Locked<Void>` has a zero-sized value, and ThreadSanitizer's
/// Swift access checks report the `inout` access to it as a race on whatever shares its
/// address (the box's own header, read by `retain` without the lock): 23 such reports, every
/// one on a `Locked<Void>`, in a run of the engine, transport, compatibility and CLI tests.
public final class Lock: Sendable {
  /// How many times the lock was taken (a value the box can guard; see above).
  private let mutex: Locked<Int>

  /// A new lock.
  public init() { mutex = Locked(0) }

  /// Runs `body` holding the lock (not reentrant).
  public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    try mutex.withLock { (holds: inout Int) throws(Failure) -> Result in
      holds += 1
      return try body()
    }
  }
}
