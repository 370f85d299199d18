import HapticCore
import HapticRenderer

/// Renders a whole pattern for tests (on `channel` of the board).
func render(
  _ pattern: HapticPattern, on profile: BoardProfile, channel: Int = 0, options: RenderOptions = RenderOptions()
) throws -> (frames: [Frame], segments: [Segment], stats: RenderStats) {
  var renderer = try ChannelRender(pattern: pattern, profile: profile, channel: channel, options: options)
  let (frames, segments) = renderer.collect()
  return (frames, segments, renderer.stats)
}

/// A haptic event with the given intensity and sharpness.
func event(
  _ type: HapticEventType, at time: Double, duration: Double? = nil, intensity: Double = 1,
  sharpness: Double = 0.5, _ extra: [EventParameter] = []
) -> HapticEvent {
  HapticEvent(
    type, time: time, duration: duration,
    parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)] + extra)
}

extension Array where Element == Frame {
  /// The first frame with non-zero drive, if any.
  var firstDriven: Frame? { first { $0.level != 0 } }

  /// The frame at index `i` (frames start at 0 and are consecutive).
  func at(_ i: Int) -> Frame { self[i] }
}
