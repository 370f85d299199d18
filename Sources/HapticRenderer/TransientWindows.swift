/// How long a transient drives, by sharpness.
///
/// LRA: 1.5 − 0.2 × sharpness cycles (1.5 to 1.3) of the resonant frequency (transients drive
/// at f0, see ``frequency(sharpness:)``), at least 4 ms: long enough to build about 0.8 G or
/// more at full intensity, short enough to peak within 1.5 cycles. ERM: 60 ms at sharpness 0 down to 25 ms at 1 (a
/// motor needs drive time to spin up at all).
struct TransientWindows: Sendable {
  let kind: ActuatorKind
  let map: PerceptualMap

  /// The window in seconds for `sharpness` (clamped to 0…1).
  func seconds(sharpness: Double) -> Double {
    let s = min(max(sharpness, 0), 1)
    switch kind {
    case .lra: return max((1.5 - 0.2 * s) / map.actuator.resonantFrequency, 0.004)
    case .erm: return 0.060 - 0.035 * s
    }
  }

  /// The drive frequency of a transient: an LRA's resonant frequency whatever the sharpness.
  /// A one-to-two-cycle burst is felt through the resonator's own ringing at f0; driven off
  /// resonance it builds a fraction of the amplitude and cannot be braked cleanly (a free
  /// ring-down at f0 drifts in phase against reverse drive at another frequency). Sharpness
  /// shapes a transient through its length instead. ERMs and amplitude-only boards: the map's
  /// frequency as for any event.
  func frequency(sharpness: Double) -> Double {
    kind == .lra ? map.actuator.resonantFrequency : map.frequency(sharpness: sharpness)
  }
}
