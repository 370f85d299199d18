import HapticCore

/// Deterministic line faults for tests and the simulator: byte drops, bit flips, duplicated
/// bytes, all driven by a seeded generator so a failing run can be replayed.
public struct FaultModel: Sendable {
  /// Probability that a byte is lost.
  public var dropRate: Double
  /// Probability that a byte has one bit flipped.
  public var corruptRate: Double
  /// Probability that a byte is delivered twice.
  public var duplicateRate: Double
  private var rng: SplitMix

  /// Creates a fault model.
  public init(dropRate: Double = 0, corruptRate: Double = 0, duplicateRate: Double = 0, seed: UInt64 = 1) {
    self.dropRate = dropRate
    self.corruptRate = corruptRate
    self.duplicateRate = duplicateRate
    rng = SplitMix(seed: seed)
  }

  /// True when no fault is configured.
  public var isClean: Bool { dropRate <= 0 && corruptRate <= 0 && duplicateRate <= 0 }

  private mutating func random() -> Double { rng.unit() }

  /// The bytes as they arrive after the faults.
  public mutating func apply(_ bytes: [UInt8]) -> [UInt8] {
    guard !isClean else { return bytes }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    for var byte in bytes {
      if dropRate > 0 && random() < dropRate { continue }
      if corruptRate > 0 && random() < corruptRate {
        byte ^= 1 << UInt8(Int(random() * 8) & 7)
      }
      output.append(byte)
      if duplicateRate > 0 && random() < duplicateRate { output.append(byte) }
    }
    return output
  }
}
