import HapticLocks

/// Tables the renderer derives from a board's actuator (perceptual maps, resonator responses),
/// computed once per process and shared: every render of a board needs the same few hundred
/// entries, and building them (a `pow`, `cos` and `sin` per hertz of band) would otherwise cost
/// more than rendering a short pattern.
///
/// Bounded: past ``capacity`` distinct keys the cache starts over (a process rendering for
/// many user boards recomputes rather than grows).
final class SharedTables<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// Distinct keys kept before the cache is emptied.
  let capacity: Int
  private let entries = Locked<[Key: Value]>([:])

  init(capacity: Int = 32) {
    self.capacity = capacity
  }

  /// The value for `key`, computed by `make` on first use. `make` runs outside the lock, so
  /// two threads may both compute a missing value; either result is kept (they are equal).
  func value(for key: Key, _ make: () -> Value) -> Value {
    if let found = entries.withLock({ $0[key] }) { return found }
    let made = make()
    entries.withLock { table in
      if table.count >= capacity { table.removeAll(keepingCapacity: true) }
      table[key] = made
    }
    return made
  }
}

/// What a perceptual map depends on.
struct PerceptualMapKey: Hashable, Sendable {
  let actuator: ActuatorModel
  let lowerHz: Double?
  let upperHz: Double?
  let mapping: IntensityMapping
}

extension PerceptualMap {
  private static let shared = SharedTables<PerceptualMapKey, PerceptualMap>()

  /// The map for an actuator, frequency band and mapping (built once per process).
  static func shared(
    actuator: ActuatorModel, frequencyControl: ClosedRange<Double>?, mapping: IntensityMapping
  ) -> PerceptualMap {
    let key = PerceptualMapKey(
      actuator: actuator, lowerHz: frequencyControl?.lowerBound, upperHz: frequencyControl?.upperBound,
      mapping: mapping)
    return shared.value(for: key) {
      PerceptualMap(actuator: actuator, frequencyControl: frequencyControl, mapping: mapping)
    }
  }
}
