public import HapticCore

extension HapticClip {
  /// The factor Lofelt's converter puts on the intensity of a breakpoint that carries an
  /// emphasis, so the accent stands out of the vibration around it (``LofeltAHAPWriter``). Not
  /// in ``pattern()``: played here, transient priority ducks the vibration around every
  /// transient (docs/semantics.md §15.4), and the factor reached along both segments of the
  /// breakpoint (Meta's `multiple_emphasis`: a 9 s ramp began 1.9 dB low).
  public static let emphasizedBreakpointScale = 0.8
  /// The frequency a clip without a frequency envelope plays at: the middle of the actuator's
  /// range, as Meta's renderer and Lofelt's players default to (sharpness √0.5 by Lofelt's rule).
  public static let defaultFrequency = 0.5

  /// The clip as a Core Haptics pattern, by the rules of Lofelt's own `.haptic` → AHAP converter
  /// (docs/semantics.md §17), so that a clip plays here as its converted AHAP plays on an iPhone:
  ///
  /// * a continuous event (intensity 1; sharpness 0 under a frequency curve, else √ of the one
  ///   frequency or of ``defaultFrequency``) over each stretch of the clip that is not
  ///   silent (``soundingSpans``: Lofelt writes one over the whole clip; silent stretches
  ///   between events let each burst start and stop cleanly, as separate AHAP events do) shaped by an
  ///   `HapticIntensityControl` curve, value √amplitude at every breakpoint and between them
  ///   (``rootLine(_:)``: the envelope is linear in amplitude), and, when there is a frequency
  ///   envelope, an `HapticSharpnessControl` curve likewise through √frequency;
  /// * each emphasis a transient at its breakpoint's time, intensity √amplitude and sharpness
  ///   the emphasis frequency, at its own strength: the pattern's intensity control scope is
  ///   ``HapticCore/HapticPattern/IntensityControlScope/continuousEvents`` (Lofelt's SDK plays
  ///   the emphases as a second pattern, out of the curve's reach).
  ///
  /// √ because amplitude is linear in drive while Core Haptics' intensity is perceptual (its
  /// drive is about intensity², docs/semantics.md §2); the pattern's ``HapticCore/HapticPattern/intensityLaw``
  /// is ``HapticCore/HapticPattern/IntensityLaw/amplitudeSquareRoot``, so hapticctl drives
  /// amplitude × rated acceleration, as Meta's renderer does. Unlike Lofelt's converter, an
  /// emphasized breakpoint is not ducked × 0.8 (``emphasizedBreakpointScale``) and the curves
  /// follow the envelopes between breakpoints. Curves keep every point (Lofelt cuts them
  /// into 16-point curves for iOS; the timeline is the same), the event is not cut at Apple's
  /// 30 s cap (hapticctl plays the whole clip), and an emphasis on the first breakpoint is
  /// played (Lofelt's converter drops it: ``LofeltAHAPWriter`` reproduces that).
  public func pattern() -> HapticPattern {
    var events: [HapticEvent] = []
    var curves: [ParameterCurve] = []
    let spans = soundingSpans
    // Without a frequency envelope the clip plays at Meta's and Lofelt's default frequency, with
    // a single breakpoint at its value; otherwise the sharpness curve carries it (added to 0).
    let sharpness = frequency.count > 1 ? 0 : (frequency.first?.frequency ?? Self.defaultFrequency).squareRoot()
    for span in spans {
      events.append(
        HapticEvent(
          .hapticContinuous, time: span.lowerBound, duration: span.upperBound - span.lowerBound,
          parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, sharpness)]))
    }
    // A curve starts at its first point (control-point times relative to it, Apple's rule).
    func curve(_ id: DynamicParameterID, _ points: [(time: Double, value: Double)]) {
      guard let start = points.first?.time, points.count > 1 else { return }
      curves.append(
        ParameterCurve(id, time: start, controlPoints: points.map { .init(time: $0.time - start, value: $0.value) }))
    }
    curve(.hapticIntensityControl, Self.holdingThroughGaps(Self.rootLine(amplitude.map { ($0.time, $0.amplitude) }), spans))
    // A frequency envelope that starts after the clip holds its first value back to the start
    // (a curve holds its last one after its end).
    var tones = frequency.map { (time: $0.time, value: $0.frequency) }
    if let first = tones.first, let start = amplitude.first?.time, first.time > start { tones.insert((start, first.value), at: 0) }
    curve(.hapticSharpnessControl, Self.holdingThroughGaps(Self.rootLine(tones), spans))
    for point in amplitude {
      guard let emphasis = point.emphasis else { continue }
      events.append(Self.transient(at: point.time, emphasis))
    }
    var pattern = HapticPattern(version: 1, metadata: metadataEntries, events: events, curves: curves)
    pattern.intensityControlScope = .continuousEvents
    pattern.intensityLaw = .amplitudeSquareRoot
    return pattern
  }

  /// The clip's metadata as AHAP `Metadata` entries, the non-empty ones: `Project`,
  /// `Description`, `Author`, `Editor`, `Source`, `Tags` (comma-separated). Read back by the
  /// conversion to `.haptic`, so the trip through AHAP keeps them.
  public var metadataEntries: [MetadataEntry] {
    [
      ("Project", metadata.project), ("Description", metadata.description), ("Author", metadata.author),
      ("Editor", metadata.editor), ("Source", metadata.source), ("Tags", metadata.tags.joined(separator: ", ")),
    ].filter { !$0.1.isEmpty }.map { MetadataEntry($0.0, $0.1) }
  }

  /// The stretches where the amplitude envelope is not silent: maximal runs of segments
  /// between breakpoints that are not both 0, from the first run's start to the last one's end
  /// (a zero-length clip has none).
  public var soundingSpans: [ClosedRange<Double>] {
    var spans: [ClosedRange<Double>] = []
    for (a, b) in zip(amplitude, amplitude.dropFirst()) where a.amplitude > 0 || b.amplitude > 0 {
      if let last = spans.last, last.upperBound >= a.time {
        spans[spans.count - 1] = last.lowerBound...b.time
      } else {
        spans.append(a.time...b.time)
      }
    }
    return spans.filter { $0.upperBound > $0.lowerBound }
  }

  /// The transient an emphasis becomes.
  static func transient(at time: Double, _ emphasis: Emphasis) -> HapticEvent {
    HapticEvent(
      .hapticTransient, time: time,
      parameters: [
        EventParameter(.hapticIntensity, emphasis.amplitude.squareRoot()), EventParameter(.hapticSharpness, emphasis.frequency),
      ])
  }
}
