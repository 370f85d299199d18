import HapticAHAP
import HapticCore

/// Writes a clip as AHAP the way Lofelt's converter does (`convert --style lofelt`), so that its
/// output equals Lofelt's own files (its rules, from Meta's MIT-licensed converter):
///
/// * the `HapticIntensityControl` curve, then the `HapticSharpnessControl` curve, each cut into
///   `ParameterCurve`s of the first breakpoint plus the next 15, then the last of those plus the
///   next 15, and so on (Core Haptics takes 16 points a curve); control-point times absolute, a
///   curve's `Time` its first point's; an envelope of one breakpoint makes no curve;
/// * the continuous event (intensity 1, sharpness 0) cut every 30 s (Apple's cap);
/// * one transient per emphasis — except on the first breakpoint, which Lofelt's converter
///   never turns into one;
/// * `Metadata`: `Project` and `Description` from the clip's, `Created` from its `author`.
///
/// Values are those of ``HapticClip/pattern()``, written as Lofelt's model holds them: 32-bit
/// floats, printed in their shortest form (a v0 file's `9.961360544217687` becomes `9.961361`).
public struct LofeltAHAPWriter: Sendable {
  /// Breakpoints a curve takes after its first point.
  public static let pointsAfterFirst = 15
  /// Seconds per continuous event.
  public static let eventLengthLimit = 30.0

  /// Creates a writer.
  public init() {}

  /// The AHAP text of `clip`, pretty-printed, ending with a newline.
  public func bytes(_ clip: HapticClip) -> [UInt8] {
    var out = JSONTextBuilder(indentWidth: 4)
    out.openObject()
    out.key("Version")
    out.number(1)
    out.key("Metadata")
    out.openObject()
    for (key, value) in [("Project", clip.metadata.project), ("Created", clip.metadata.author), ("Description", clip.metadata.description)] {
      out.key(key)
      out.string(value)
    }
    out.closeObject()
    out.key("Pattern")
    out.openArray()
    // Lofelt computes in 32-bit floats: √, then × 0.8 on an emphasized breakpoint.
    let scale = Float(HapticClip.emphasizedBreakpointScale)
    curves(
      "HapticIntensityControl",
      clip.amplitude.map { ($0.time, Double(Float($0.amplitude).squareRoot() * ($0.emphasis == nil ? 1 : scale))) }, to: &out)
    curves("HapticSharpnessControl", clip.frequency.map { ($0.time, Double(Float($0.frequency).squareRoot())) }, to: &out)
    let duration = clip.duration
    let count = Int((duration / Self.eventLengthLimit).rounded(.up))
    for index in 0..<max(count, 0) {
      let start = Double(index) * Self.eventLengthLimit
      event("HapticContinuous", time: start, duration: min(Self.eventLengthLimit, duration - start), intensity: 1, sharpness: 0, to: &out)
    }
    for point in clip.amplitude.dropFirst() {
      guard let emphasis = point.emphasis else { continue }
      event("HapticTransient", time: point.time, duration: nil, intensity: Double(Float(emphasis.amplitude).squareRoot()), sharpness: emphasis.frequency, to: &out)
    }
    out.closeArray()
    out.closeObject()
    return out.finish()
  }

  /// The control points in runs: the first point and the next ``pointsAfterFirst``, then the
  /// last of those and the next ones, and so on; none for fewer than two points.
  static func chunks<Point>(_ points: [Point]) -> [[Point]] {
    guard var first = points.first else { return [] }
    var chunks: [[Point]] = []
    var rest = points.dropFirst()
    while !rest.isEmpty {
      let next = rest.prefix(pointsAfterFirst)
      chunks.append([first] + next)
      first = next.last!
      rest = rest.dropFirst(next.count)
    }
    return chunks
  }

  /// `value` as a 32-bit float's shortest decimal (Lofelt's model is 32-bit).
  static func float32(_ value: Double) -> Double {
    Double(Float(value).description) ?? value
  }

  private func curves(_ id: String, _ points: [(time: Double, value: Double)], to out: inout JSONTextBuilder) {
    let points = points.map { (time: Self.float32($0.time), value: Self.float32($0.value)) }
    for chunk in Self.chunks(points) {
      out.openObject()
      out.parameterCurve(id: id, time: chunk[0].time, points: chunk)
      out.closeObject()
    }
  }

  private func event(
    _ type: String, time: Double, duration: Double?, intensity: Double, sharpness: Double, to out: inout JSONTextBuilder
  ) {
    out.openObject()
    out.key("Event")
    out.openObject()
    out.key("EventType")
    out.string(type)
    out.key("Time")
    out.number(Self.float32(time))
    if let duration {
      out.key("EventDuration")
      out.number(Self.float32(duration))
    }
    out.eventParameters([("HapticIntensity", Self.float32(intensity)), ("HapticSharpness", Self.float32(sharpness))])
    out.closeObject()
    out.closeObject()
  }
}
