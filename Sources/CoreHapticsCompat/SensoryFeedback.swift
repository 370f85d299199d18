import HapticCore
import HapticEngine

/// SwiftUI's feedback kinds (`SensoryFeedback`), played on a hapticctl board with
/// ``CHHapticEngine/play(_:)`` (SwiftUI's `.sensoryFeedback(_:trigger:)` has no Linux
/// counterpart; call `play` where the trigger changes). Each is one of `hapticctl presets`
/// (docs/semantics.md §13.8, §16).
public struct SensoryFeedback: Hashable, Sendable {
  /// An impact's weight (SwiftUI's `SensoryFeedback.Weight`).
  public enum Weight: Hashable, Sendable {
    case light, medium, heavy
  }

  /// An impact's flexibility (SwiftUI's `SensoryFeedback.Flexibility`).
  public enum Flexibility: Hashable, Sendable {
    case rigid, solid, soft
  }

  /// The preset it plays.
  let preset: String
  /// Its intensity (impacts; 1 for the others).
  let intensity: Double

  public static let success = SensoryFeedback(preset: "success", intensity: 1)
  public static let warning = SensoryFeedback(preset: "warning", intensity: 1)
  public static let error = SensoryFeedback(preset: "error", intensity: 1)
  public static let selection = SensoryFeedback(preset: "selection", intensity: 1)
  public static let increase = SensoryFeedback(preset: "increase", intensity: 1)
  public static let decrease = SensoryFeedback(preset: "decrease", intensity: 1)
  public static let start = SensoryFeedback(preset: "start", intensity: 1)
  public static let stop = SensoryFeedback(preset: "stop", intensity: 1)
  public static let alignment = SensoryFeedback(preset: "alignment", intensity: 1)
  public static let levelChange = SensoryFeedback(preset: "levelChange", intensity: 1)
  /// A medium impact.
  public static let impact = SensoryFeedback.impact(weight: .medium)

  /// An impact of `weight` at `intensity` (0…1; clamped).
  public static func impact(weight: Weight = .medium, intensity: Double = 1) -> SensoryFeedback {
    let preset: String
    switch weight {
    case .light: preset = "impact-light"
    case .medium: preset = "impact-medium"
    case .heavy: preset = "impact-heavy"
    }
    return SensoryFeedback(preset: preset, intensity: Self.clamped(intensity))
  }

  /// An impact of `flexibility` at `intensity` (0…1; clamped): rigid is a crisp tap, soft a
  /// cushioned one, solid between them (the medium impact).
  public static func impact(flexibility: Flexibility, intensity: Double = 1) -> SensoryFeedback {
    let preset: String
    switch flexibility {
    case .rigid: preset = "impact-rigid"
    case .solid: preset = "impact-medium"
    case .soft: preset = "impact-soft"
    }
    return SensoryFeedback(preset: preset, intensity: Self.clamped(intensity))
  }

  private static func clamped(_ intensity: Double) -> Double {
    intensity.isFinite ? min(max(intensity, 0), 1) : 1
  }

  /// The feedback as a pattern.
  public var pattern: CHHapticPattern {
    // Every preset name above is one of HapticPresets' (finite times and values).
    CHHapticPattern(unchecked: HapticPresets.pattern(preset, intensity: intensity) ?? HapticPattern())
  }
}

extension CHHapticEngine {
  /// Plays `feedback` once, now (starting the engine if needed).
  public func play(_ feedback: SensoryFeedback) throws(CHHapticError) {
    try playPattern(feedback.pattern)
  }
}
