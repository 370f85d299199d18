#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds on the system's monotonic clock (`CLOCK_MONOTONIC`).
///
/// Host time for a board link must not jump when the wall clock is set (NTP, the user): clock
/// sync maps host time to board time, and a jump would move every scheduled frame. It is also
/// read several times per scheduler pass, so it should be cheap: `clock_gettime` is a vDSO call,
/// without the `Date` or `Duration` arithmetic of Foundation's and the standard library's clocks.
public enum MonotonicTime {
  /// The monotonic clock now, in seconds from an arbitrary origin (boot, on Linux).
  @inline(__always)
  public static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}
