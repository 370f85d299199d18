public import HapticCore

/// Ready-made feedback patterns, like UIKit's feedback generators and SwiftUI's
/// `sensoryFeedback`: notification (success, warning, error), selection, increase, decrease,
/// start, stop, alignment, level change, and impacts of five styles that take an intensity.
public enum HapticPresets {
  /// A preset's name and what it feels like.
  public struct Preset: Sendable, Hashable {
    /// The name `hapticctl send --preset` takes.
    public let name: String
    /// One line on what it is for.
    public let summary: String
    /// Whether `--intensity` scales it (impacts).
    public let takesIntensity: Bool
  }

  /// Every preset, in the order `hapticctl presets` lists them.
  public static let all: [Preset] = [
    Preset(name: "success", summary: "a task completed: two taps, the second stronger", takesIntensity: false),
    Preset(name: "warning", summary: "attention needed: a strong tap, then a softer one", takesIntensity: false),
    Preset(name: "error", summary: "a task failed: four quick taps", takesIntensity: false),
    Preset(name: "selection", summary: "a selection changed: one light, crisp tick", takesIntensity: false),
    Preset(name: "increase", summary: "a value went up: a bright tap", takesIntensity: false),
    Preset(name: "decrease", summary: "a value went down: a dull tap", takesIntensity: false),
    Preset(name: "start", summary: "an activity started: a short swell", takesIntensity: false),
    Preset(name: "stop", summary: "an activity stopped: a firm tap and a fade", takesIntensity: false),
    Preset(name: "alignment", summary: "something snapped into place: a tiny crisp tick", takesIntensity: false),
    Preset(name: "levelChange", summary: "crossed a level: a double tick", takesIntensity: false),
    Preset(name: "impact-light", summary: "a light collision (takes --intensity)", takesIntensity: true),
    Preset(name: "impact-medium", summary: "a medium collision (takes --intensity)", takesIntensity: true),
    Preset(name: "impact-heavy", summary: "a heavy collision (takes --intensity)", takesIntensity: true),
    Preset(name: "impact-soft", summary: "a soft, cushioned collision (takes --intensity)", takesIntensity: true),
    Preset(name: "impact-rigid", summary: "a hard, rigid collision (takes --intensity)", takesIntensity: true),
  ]

  /// The pattern of preset `name` (intensity 0…1 scales impacts), or nil for an unknown name.
  public static func pattern(_ name: String, intensity: Double = 1) -> HapticPattern? {
    let scale = min(max(intensity, 0), 1)
    func tap(_ time: Double, _ intensity: Double, _ sharpness: Double) -> HapticEvent {
      HapticEvent(
        .hapticTransient, time: time,
        parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    }
    func swell(_ time: Double, _ duration: Double, _ intensity: Double, _ sharpness: Double, attack: Double, release: Double)
      -> HapticEvent
    {
      HapticEvent(
        .hapticContinuous, time: time, duration: duration,
        parameters: [
          EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
          EventParameter(.attackTime, attack), EventParameter(.releaseTime, release),
        ])
    }
    switch name {
    case "success": return HapticPattern(events: [tap(0, 0.6, 0.5), tap(0.1, 1, 0.7)])
    case "warning": return HapticPattern(events: [tap(0, 1, 0.6), tap(0.15, 0.6, 0.4)])
    case "error": return HapticPattern(events: [tap(0, 1, 0.8), tap(0.07, 0.9, 0.6), tap(0.14, 1, 0.8), tap(0.21, 0.8, 0.5)])
    case "selection": return HapticPattern(events: [tap(0, 0.45, 0.9)])
    case "increase": return HapticPattern(events: [tap(0, 0.65, 0.85)])
    case "decrease": return HapticPattern(events: [tap(0, 0.65, 0.25)])
    case "start": return HapticPattern(events: [swell(0, 0.12, 0.8, 0.5, attack: 0.6, release: 0.2)])
    case "stop": return HapticPattern(events: [tap(0, 0.9, 0.6), swell(0.02, 0.1, 0.5, 0.3, attack: 0, release: 0.7)])
    case "alignment": return HapticPattern(events: [tap(0, 0.5, 1)])
    case "levelChange": return HapticPattern(events: [tap(0, 0.7, 0.7), tap(0.05, 0.7, 0.7)])
    case "impact-light": return HapticPattern(events: [tap(0, 0.5 * scale, 0.6)])
    case "impact-medium": return HapticPattern(events: [tap(0, 0.75 * scale, 0.5)])
    case "impact-heavy": return HapticPattern(events: [tap(0, 1 * scale, 0.3)])
    case "impact-soft": return HapticPattern(events: [tap(0, 0.6 * scale, 0.1), swell(0, 0.04, 0.4 * scale, 0.1, attack: 0.3, release: 0.4)])
    case "impact-rigid": return HapticPattern(events: [tap(0, 0.9 * scale, 1)])
    default: return nil
    }
  }
}
