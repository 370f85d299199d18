#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps Core Haptics' 0…1 envelope time parameters (AttackTime, DecayTime, ReleaseTime) to
/// seconds.
///
/// Apple says larger values lengthen the envelope "exponentially" and publishes no constants.
/// hapticctl uses `T(p) = (1000^p − 1) / 999` seconds: 0 → 0 s, 0.1 → 1 ms, 0.5 → 30.6 ms,
/// 0.9 → 0.5 s, 1 → 1 s. Each +0.1 roughly doubles the time.
public enum EnvelopeTiming {
  /// Seconds for parameter value `p` (clamped to 0…1).
  public static func seconds(_ p: Double) -> Double {
    let clamped = min(max(p, 0), 1)
    return (pow(1000, clamped) - 1) / 999
  }
}
