public import HapticCore

/// A pattern as Android vibration effects (`hapticctl convert --to android-waveform` or
/// `android-envelope`), built from the same trace of the pattern's mix as a `.haptic` clip
/// (docs/semantics.md §17.3):
///
/// * ``waveform``: `VibrationEffect.createWaveform(timings, amplitudes, -1)`: durations in
///   milliseconds, each at a constant amplitude 0–255 (linear drive: intensity² × 255, as a
///   clip's amplitude), a step for every change of one level or more;
/// * ``envelope``: Android 16's `VibrationEffect.BasicEnvelopeBuilder`: control points of
///   perceived intensity and sharpness (both 0…1, as Core Haptics') reached by a linear ramp
///   over a duration in milliseconds, starting from ``initialSharpness`` at intensity 0 and
///   ending at intensity 0.
///
/// Neither has transients: each becomes a burst of ``burstMilliseconds`` at its own strength,
/// the continuous part silenced ``duckBeforeMilliseconds`` before it and
/// ``duckAfterMilliseconds`` after it (the renderer's transient priority, §15.4), so the
/// accent starts from rest and stands out. The notes say what each form leaves out.
public struct AndroidEffect: Sendable {
  /// Milliseconds a transient's burst lasts (about three cycles of a 170 Hz LRA).
  public static let burstMilliseconds = 20
  /// Milliseconds of silence before a transient's burst.
  public static let duckBeforeMilliseconds = 10
  /// Milliseconds of silence after a transient's burst.
  public static let duckAfterMilliseconds = 5
  /// The shortest envelope ramp: every device with envelope effects takes 20 ms (Android's
  /// `VibratorEnvelopeEffectInfo.getMinControlPointDurationMillis` guarantee).
  public static let shortestRampMilliseconds = 20
  /// The longest envelope ramp: every such device takes 1 s (longer ones are cut).
  public static let longestRampMilliseconds = 1000

  /// One control point of a basic envelope.
  public struct ControlPoint: Sendable, Hashable {
    public var intensity: Double
    public var sharpness: Double
    /// Milliseconds of linear ramp from the previous point (``shortestRampMilliseconds`` to
    /// ``longestRampMilliseconds``).
    public var duration: Int
  }

  /// `createWaveform`'s `timings` (ms) and `amplitudes` (0–255), one entry per step.
  public var waveform: (timings: [Int], amplitudes: [Int])
  /// The envelope's starting sharpness.
  public var initialSharpness: Double
  /// The envelope's control points, the last at intensity 0.
  public var envelope: [ControlPoint]
  /// What each form could not carry.
  public var waveformNotes: [ClipConversion.Note]
  public var envelopeNotes: [ClipConversion.Note]

  /// The longest pattern converted, seconds (10 minutes: an Android effect is a moment of
  /// feedback, and the timeline holds every millisecond).
  public static let maximumDuration = 600.0

  /// Why a pattern has no Android effect.
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    /// How long the pattern sounds, seconds.
    public var duration: Double
    public var description: String {
      "the pattern sounds for \(duration) s, over the \(AndroidEffect.maximumDuration) s an Android effect may last here"
    }
  }

  /// The Android effects of `pattern`.
  /// - Throws: ``Refusal`` when the pattern sounds longer than ``maximumDuration``.
  public init(_ pattern: HapticPattern, tolerance: Double = HapticClip.conversionTolerance) throws(Refusal) {
    let sounding = pattern.events.filter(\.type.isHaptic).map { $0.time + ($0.duration ?? 0) }.max() ?? 0
    let length = max(pattern.duration, sounding)
    guard length <= Self.maximumDuration else { throw Refusal(duration: length) }
    let timeline = AndroidTimeline(pattern, tolerance: tolerance)
    waveform = timeline.waveform()
    let built = timeline.envelope()
    (initialSharpness, envelope) = (built.initialSharpness, built.points)
    let common = timeline.notes
    let bursts = timeline.bursts.isEmpty
      ? [] : [
        ClipConversion.Note(
          .lost, time: timeline.bursts[0].time,
          "\(timeline.bursts.count) transient\(timeline.bursts.count == 1 ? "" : "s"): Android effects have none; each is a \(Self.burstMilliseconds) ms burst at its own strength, the continuous part silenced around it")
      ]
    var sharpness: [ClipConversion.Note] = []
    if let varied = timeline.firstSound {
      sharpness = [.init(.lost, time: varied, "sharpness: an amplitude waveform has none (the device's own frequency plays)")]
    }
    waveformNotes = common + bursts + sharpness
    var ramps: [ClipConversion.Note] = []
    if let first = built.smoothed {
      ramps = [
        .init(
          .lost, time: first,
          "changes faster than \(Self.shortestRampMilliseconds) ms are smoothed: envelope ramps last at least that long (the shortest every device with envelope effects takes)")
      ]
    }
    envelopeNotes = common + bursts + ramps
  }
}
