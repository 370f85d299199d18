/// The shapes of a clip that Meta's validator refuses and this reader plays with a warning
/// (Apple-like leniency), worded once so that a v1 file and an upgraded v0 file say the same.
enum ClipShape {
  /// A clip that lasts no time: one breakpoint (a moment), or every breakpoint at 0 s.
  static func lengthWarning(_ amplitude: [HapticClip.AmplitudeBreakpoint]) -> String? {
    if amplitude.count == 1, let only = amplitude.first {
      return "a single breakpoint (at \(only.time) s): the clip is a moment with no length (Meta's validator refuses it)"
    }
    if amplitude.count > 1, let last = amplitude.last, last.time <= 0 {
      return "every breakpoint is at 0 s: the clip lasts 0 s (Meta's validator refuses it)"
    }
    return nil
  }

  /// A frequency envelope going on past the amplitude envelope's end. Meta's rule; Lofelt's own
  /// converter pairs break it by half a millisecond (2_points: 2.0 s against 1.9995 s), so it is
  /// a warning: the clip ends with its amplitude envelope.
  static func frequencyWarning(last: Double, end: Double) -> String? {
    last > end ? "\(last) s is past the amplitude envelope's end (\(end) s): the clip ends there" : nil
  }
}
