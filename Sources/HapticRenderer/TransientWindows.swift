/// How long a transient drives, by sharpness.
///
/// LRA: 2 − sharpness cycles (1 to 2) at the drive frequency, at least 4 ms. ERM: 60 ms at
/// sharpness 0 down to 25 ms at 1 (a motor needs drive time to spin up at all).
struct TransientWindows: Sendable {
  let kind: ActuatorKind
  let map: PerceptualMap

  /// The window in seconds for `sharpness` (clamped to 0…1).
  func seconds(sharpness: Double) -> Double {
    let s = min(max(sharpness, 0), 1)
    switch kind {
    case .lra: return max((2 - s) / map.frequency(sharpness: s), 0.004)
    case .erm: return 0.060 - 0.035 * s
    }
  }
}
