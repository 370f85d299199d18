/// SplitMix64: a tiny, fast, deterministic random generator. Seeded runs replay exactly, which is
/// what fault injection and property tests need (not for anything security-related).
public struct SplitMix: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in [0, 1) with 53 random bits.
  public mutating func unit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }
}

extension SplitMix {
  /// A uniform integer in `range` (modulo the range's size; fine for tests and workloads).
  public mutating func next(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }
}
