public import HapticCore
public import HapticRenderer

/// Measures a board's response map by running its simulator (`hapticctl characterize`): what a
/// designer's intensity and sharpness become as acceleration on the board's actuator.
///
/// Every figure comes from simulated physics, not from the renderer's own model:
/// - **steady level**: a 0.4 s `HapticContinuous` event at each intensity 0.05 … 1 (step 0.05)
///   and each sharpness 0, 0.25, 0.5, 0.75, 1; the largest |acceleration| over 0.25 … 0.35 s;
/// - **overshoot**: the largest |acceleration| of the whole run over the steady level;
/// - **rise**: from the event's start to the first |acceleration| at 90 % of the steady level;
/// - **stop**: from the event's end to the last |acceleration| at the detection threshold;
/// - **transients**: a lone transient (intensity 1) at sharpness 0, 0.5, 1: peak, rise, stop
///   (``ResponseAnalyzer``), time above 10 % of its peak and its felt envelope in 5 ms windows;
/// - **full intensity**: intensity 1 at sharpness 0, 1/8, … 1 (the loudness tilt), and a
///   `.haptic` clip's middle frequency (amplitude 1, frequency 0.5);
/// - **transient over continuous**: a transient (1, 1) at 0.2 s over a 0.4 s continuous event
///   (0.6, s) for s = 0, 0.5, 1: the peak over 0.2 … 0.25 s against the lone transient's peak.
public struct BoardCharacterization: Sendable {
  /// The sharpness values of the sweep.
  public static let sharpnessValues = [0.0, 0.25, 0.5, 0.75, 1.0]
  /// The intensities of the sweep: 0.05 … 1 in steps of 0.05.
  public static let intensities = (1...20).map { Double($0) / 20 }
  /// The continuous event's length, seconds.
  public static let eventDuration = 0.4
  /// Where the steady level is read, seconds from the event start.
  public static let steadyWindow = 0.25...0.35
  /// When the transient over a continuous event starts, seconds.
  public static let transientTime = 0.2
  /// The continuous intensity under that transient.
  public static let underlyingIntensity = 0.6

  /// The simulated board.
  public let configuration: SimulatorConfiguration

  /// Prepares the measurement of `configuration`'s board.
  public init(configuration: SimulatorConfiguration) {
    self.configuration = configuration
  }

  /// Runs every measurement on every channel (a multi-channel board plays each pattern on all of
  /// its channels at once; each channel is read on its own).
  ///
  /// - Throws: ``RenderError`` when the board cannot be rendered for.
  public func measure() throws(RenderError) -> [ChannelResponseMap] {
    if let problem = configuration.problem {
      throw RenderError(board: configuration.profile.id, message: problem)
    }
    let channels = configuration.profile.channels.count
    var sweeps = Array(repeating: [ChannelResponseMap.SharpnessSweep](), count: channels)
    for sharpness in Self.sharpnessValues {
      var rows = Array(repeating: [ChannelResponseMap.SteadyPoint](), count: channels)
      for intensity in Self.intensities {
        let pattern = Self.continuous(intensity: intensity, sharpness: sharpness)
        let peaks = try run(pattern, window: Self.steadyWindow, riseFromSteady: true)
        for channel in 0..<channels {
          rows[channel].append(
            ChannelResponseMap.SteadyPoint(
              intensity: intensity, steady: peaks[channel].window, peak: peaks[channel].overall,
              riseMilliseconds: peaks[channel].rise.map { $0 * 1000 },
              stopMilliseconds: max(peaks[channel].lastFelt - Self.eventDuration, 0) * 1000))
        }
      }
      let frequencies = try driveFrequencies(sharpness: sharpness)
      for channel in 0..<channels {
        sweeps[channel].append(
          ChannelResponseMap.SharpnessSweep(
            sharpness: sharpness, frequency: frequencies[channel], points: rows[channel]))
      }
    }
    var transients = Array(repeating: [ChannelResponseMap.TransientFigures](), count: channels)
    for sharpness in [0.0, 0.5, 1.0] {
      let pattern = Self.transient(sharpness: sharpness, at: 0)
      let metrics = try analyze(pattern)
      let envelope = try clickEnvelope(pattern)
      for channel in 0..<channels {
        transients[channel].append(
          ChannelResponseMap.TransientFigures(
            sharpness: sharpness, peak: metrics[channel].peak, riseMilliseconds: metrics[channel].riseMilliseconds,
            stopMilliseconds: metrics[channel].stopMilliseconds, aboveTenthMilliseconds: envelope.aboveTenth(channel),
            windows: envelope.windows(channel)))
      }
    }
    var fullIntensity = Array(repeating: [ChannelResponseMap.FullIntensityPoint](), count: channels)
    for sharpness in Self.fineSharpnessValues {
      // The sweeps measured intensity 1 at their own sharpness values already.
      if let swept = Self.sharpnessValues.firstIndex(of: sharpness) {
        for channel in 0..<channels {
          let sweep = sweeps[channel][swept]
          fullIntensity[channel].append(
            .init(sharpness: sharpness, frequency: sweep.frequency, steady: sweep.points.last?.steady ?? 0))
        }
        continue
      }
      let points = try fullIntensityPoints(Self.continuous(intensity: 1, sharpness: sharpness), sharpness: sharpness)
      for channel in 0..<channels { fullIntensity[channel].append(points[channel]) }
    }
    let clipMiddle = try fullIntensityPoints(Self.clipMiddle(), sharpness: Self.clipMiddleSharpness)
    let alone = try run(Self.transient(sharpness: 1, at: Self.transientTime), window: Self.transientWindow)
    var mixes = Array(repeating: [ChannelResponseMap.TransientOverContinuous](), count: channels)
    for sharpness in [0.0, 0.5, 1.0] {
      var pattern = Self.continuous(intensity: Self.underlyingIntensity, sharpness: sharpness)
      pattern.add(Self.transient(sharpness: 1, at: Self.transientTime).events[0])
      let peaks = try run(pattern, window: Self.transientWindow)
      for channel in 0..<channels {
        mixes[channel].append(
          ChannelResponseMap.TransientOverContinuous(
            continuousSharpness: sharpness, peak: peaks[channel].window, alonePeak: alone[channel].window))
      }
    }
    let profile = configuration.profile
    return (0..<channels).map { channel in
      let model = profile.channels[channel]
      return ChannelResponseMap(
        board: profile.id, channel: channel, kind: model.kind, resonantFrequency: model.resonantFrequency,
        sharpnessBand: try? FrameRenderer(pattern: HapticPattern(), profile: profile, channel: channel).sharpnessBand,
        sweeps: sweeps[channel], transients: transients[channel], transientOverContinuous: mixes[channel],
        fullIntensity: fullIntensity[channel], clipMiddle: clipMiddle[channel])
    }
  }

  /// The sharpness values of the fine sweep at intensity 1: 0, 1/8, … 1.
  public static let fineSharpnessValues = (0...8).map { Double($0) / 8 }
  /// A `.haptic` clip's frequency 0.5 as sharpness (Lofelt's rule √f, docs/semantics.md §17).
  public static let clipMiddleSharpness = 0.5.squareRoot()

  /// What a `.haptic` clip at amplitude 1 and frequency 0.5 plays (`HapticClip.pattern()`; the
  /// tests check they agree): a continuous event at sharpness √0.5 by the amplitude law.
  public static func clipMiddle() -> HapticPattern {
    var pattern = continuous(intensity: 1, sharpness: clipMiddleSharpness)
    pattern.intensityLaw = .amplitudeSquareRoot
    return pattern
  }

  /// Each channel's steady level and drive frequency for `pattern` (a continuous event).
  private func fullIntensityPoints(
    _ pattern: HapticPattern, sharpness: Double
  ) throws(RenderError) -> [ChannelResponseMap.FullIntensityPoint] {
    let peaks = try run(pattern, window: Self.steadyWindow)
    let frequencies = try driveFrequencies(pattern)
    return peaks.indices.map {
      ChannelResponseMap.FullIntensityPoint(sharpness: sharpness, frequency: frequencies[$0], steady: peaks[$0].window)
    }
  }

  private func clickEnvelope(_ pattern: HapticPattern) throws(RenderError) -> ClickEnvelope {
    var simulation = try PatternSimulation(pattern: pattern, configuration: configuration)
    var envelope = ClickEnvelope(channels: configuration.profile.channels.count)
    simulation.run(into: &envelope)
    return envelope
  }

  /// Where the transient over a continuous event is read.
  static let transientWindow = transientTime...(transientTime + 0.05)

  /// A continuous event of ``eventDuration`` at `intensity` and `sharpness`, from 0 s.
  public static func continuous(intensity: Double, sharpness: Double) -> HapticPattern {
    HapticPattern(events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: eventDuration,
        parameters: [EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness)])
    ])
  }

  /// A full-intensity transient at `sharpness` and `time`.
  public static func transient(sharpness: Double, at time: Double) -> HapticPattern {
    HapticPattern(events: [
      HapticEvent(
        .hapticTransient, time: time,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, sharpness)])
    ])
  }

  /// The drive frequency each channel's frames carry in the middle of a continuous event at
  /// `sharpness` (the resonant frequency on amplitude-only boards).
  private func driveFrequencies(sharpness: Double) throws(RenderError) -> [Double] {
    try driveFrequencies(Self.continuous(intensity: 1, sharpness: sharpness))
  }

  /// The drive frequency each channel's frames carry in the middle of `pattern` (a continuous
  /// event from 0 s).
  private func driveFrequencies(_ pattern: HapticPattern) throws(RenderError) -> [Double] {
    let profile = configuration.profile
    var frequencies: [Double] = []
    for channel in profile.channels.indices {
      guard profile.channels[channel].frequencyControl != nil else {
        frequencies.append(profile.channels[channel].resonantFrequency)
        continue
      }
      var renderer = try FrameRenderer(pattern: pattern, profile: profile, channel: channel)
      let middle = Int((Self.steadyWindow.lowerBound / profile.framePeriod).rounded())
      var frequency = 0
      while let frame = renderer.next(), frame.index <= middle { frequency = frame.frequency }
      frequencies.append(Double(frequency))
    }
    return frequencies
  }

  private func analyze(_ pattern: HapticPattern) throws(RenderError) -> [ResponseMetrics] {
    var simulation = try PatternSimulation(pattern: pattern, configuration: configuration)
    var analyzer = ResponseAnalyzer(channels: configuration.profile.channels.count, stepRate: configuration.physicsRate)
    simulation.run(into: &analyzer)
    return analyzer.metrics
  }

  private func run(
    _ pattern: HapticPattern, window: ClosedRange<Double>, riseFromSteady: Bool = false
  ) throws(RenderError) -> [PeakTrace.Channel] {
    var simulation = try PatternSimulation(pattern: pattern, configuration: configuration)
    var trace = PeakTrace(channels: configuration.profile.channels.count, window: window)
    simulation.run(into: &trace)
    return trace.channels.map { channel in
      var channel = channel
      if riseFromSteady { channel.rise = trace.firstCrossing(channel.index, of: 0.9 * channel.window) }
      return channel
    }
  }
}

/// Keeps, per channel, the largest |acceleration| inside a time window and overall, and the
/// samples needed to find when the acceleration first reached a level.
struct PeakTrace: SimulationTrace {
  struct Channel {
    let index: Int
    var window = 0.0
    var overall = 0.0
    var rise: Double?
    /// The last time |acceleration| was at or above the detection threshold.
    var lastFelt = 0.0
  }

  var channels: [Channel]
  let window: ClosedRange<Double>
  /// (time, |a|) of every local rise to a new running maximum, per channel: enough to find the
  /// first time any level below the overall maximum was reached.
  private var records: [[(time: Double, value: Double)]]

  init(channels: Int, window: ClosedRange<Double>) {
    self.channels = (0..<channels).map { Channel(index: $0) }
    self.window = window
    records = Array(repeating: [], count: channels)
  }

  mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
    let value = abs(acceleration)
    if value > channels[channel].overall {
      channels[channel].overall = value
      records[channel].append((time, value))
    }
    if window.contains(time) && value > channels[channel].window { channels[channel].window = value }
    if value >= ChannelResponseMap.detectionThreshold { channels[channel].lastFelt = time }
  }

  /// The first time channel `index`'s |acceleration| reached `level` (`nil` if never).
  func firstCrossing(_ index: Int, of level: Double) -> Double? {
    guard level > 0 else { return nil }
    return records[index].first { $0.value >= level }?.time
  }
}
