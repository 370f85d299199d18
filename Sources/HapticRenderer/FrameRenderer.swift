import Foundation
public import HapticCore

/// Renders a pattern into frames for one channel of a board, one frame at a time.
///
/// Pull-based: it holds the pattern and the voices sounding now, never the frame timeline, so a
/// pattern of any length renders in constant memory. Frames start at 0 s and end with the first
/// all-zero frame after every event, release tail and brake has finished.
public struct FrameRenderer: Sendable, IteratorProtocol, Sequence {
  private let profile: BoardProfile
  private let actuator: ActuatorModel
  private let map: PerceptualMap
  private let period: Double
  private let events: [HapticEvent]
  /// The frame each event starts on (round(time / period)), parallel to `events`.
  private let startFrames: [Int]
  private let controls: ControlTimeline
  private var intensityControl: ControlCursor
  private var sharpnessControl: ControlCursor
  private var shaper: Shaper?
  private var nextEvent = 0
  private var active: [Voice] = []
  private var frameIndex = 0
  private var lastFrequency: Double
  private var lastCrispness = 1.0
  private var finished = false
  /// The earliest end frame among the active voices.
  private var nextVoiceEnd = Int.max
  private let windows: TransientWindows
  private let maxLevel: Int
  /// 1 / maxLevel: one level as a fraction of full scale.
  private let levelScale: Double
  private let minLevel: Int
  private let reportsFrequency: Bool
  /// The last mixed (acceleration, frequency) and the drive it mapped to.
  private var lastMix = (g: -1.0, hz: -1.0, drive: 0.0)
  /// The rated acceleration at `lastMix.hz`.
  private var lastRated = 0.0

  /// Prepares rendering of `pattern` for `channel` of `profile`.
  ///
  /// - Throws: ``RenderError`` when the profile is unusable, the channel does not exist, or the
  ///   pattern is longer than ``RenderOptions/maxDuration``.
  public init(
    pattern: HapticPattern, profile: BoardProfile, channel: Int = 0,
    options: RenderOptions = RenderOptions()
  ) throws(RenderError) {
    if let problem = profile.problem { throw RenderError(board: profile.id, message: problem) }
    guard profile.channels.indices.contains(channel) else {
      throw RenderError(board: profile.id, message: "no channel \(channel) (the board has \(profile.channels.count))")
    }
    let lastEnd = pattern.events.reduce(pattern.duration) { Swift.max($0, $1.time + ($1.duration ?? 0)) }
    guard lastEnd <= options.maxDuration else {
      throw RenderError(
        board: profile.id,
        message: "the pattern lasts \(lastEnd) s, over the \(options.maxDuration) s limit")
    }
    self.profile = profile
    actuator = profile.channels[channel]
    map = PerceptualMap(
      actuator: actuator, frequencyControl: profile.frequencyControl, mapping: options.intensityMapping)
    period = profile.framePeriod
    events = pattern.events.filter(\.type.isHaptic)
    startFrames = events.map { Int(($0.time / profile.framePeriod).rounded(.toNearestOrEven)) }
    controls = ControlTimeline(pattern)
    intensityControl = ControlCursor(.hapticIntensityControl, pattern: pattern)
    sharpnessControl = ControlCursor(.hapticSharpnessControl, pattern: pattern)
    lastFrequency = map.frequency(sharpness: 0.5)
    windows = TransientWindows(kind: actuator.kind, map: map)
    maxLevel = profile.maxLevel
    levelScale = 1 / Double(profile.maxLevel)
    minLevel = profile.minLevel
    reportsFrequency = profile.frequencyControl != nil
    if profile.shaping == .host {
      // At rest once the modelled vibration is below half the detection threshold.
      let threshold = DetectionThreshold.acceleration(at: actuator.resonantFrequency)
      let stop = 0.5 * threshold * actuator.ratedAmplitude / actuator.ratedAcceleration
      let resolution = 1 / Double(profile.maxLevel)
      if actuator.kind == .lra, actuator.qualityFactor != nil {
        shaper = .resonator(
          ResonatorShaper(
            actuator: actuator, framePeriod: period, stopThreshold: stop, resolution: resolution,
            frequencyBand: profile.frequencyControl.map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) }))
      } else {
        shaper = .envelope(
          DriveShaper(actuator: actuator, framePeriod: period, stopThreshold: stop, resolution: resolution))
      }
    }
  }

  /// The frame period in seconds.
  public var framePeriod: Double { period }

  /// The drive-frequency band sharpness maps onto, or `nil` on amplitude-only boards.
  public var sharpnessBand: ClosedRange<Int>? { map.band }

  /// The length of the transient drive window for `sharpness`, in seconds.
  ///
  /// LRA: 2 − sharpness cycles (1 to 2) at the drive frequency, at least 4 ms. ERM: 60 ms at
  /// sharpness 0 down to 25 ms at 1 (a motor needs drive time to spin up at all).
  public func transientWindow(sharpness: Double) -> Double {
    windows.seconds(sharpness: sharpness)
  }

  /// The next frame, or `nil` after the final zero frame.
  public mutating func next() -> Frame? {
    guard !finished else { return nil }
    let k = frameIndex
    // Silence between events: nothing sounding, the actuator at rest, no event due.
    if active.isEmpty && (shaper?.isAtRest ?? true) && nextEvent < events.count
      && startFrames[nextEvent] > k
    {
      frameIndex += 1
      return Frame(index: k, level: 0, frequency: reportsFrequency ? Int(lastFrequency.rounded(.toNearestOrEven)) : 0)
    }
    let t = Double(k) * period
    admitVoices(upTo: k)
    if k >= nextVoiceEnd {
      active.removeAll { $0.endFrame <= k }
      nextVoiceEnd = active.reduce(Int.max) { Swift.min($0, $1.endFrame) }
    }

    let (target, hz) = mix(at: t, frame: k)
    var level: Int
    if var shaping = shaper {
      let drive = shaping.drive(toward: target, crispness: lastCrispness, frequency: hz)
      level = quantize(drive)
      shaping.advance(sent: Double(level) * levelScale, target: target, frequency: hz)
      shaper = shaping
    } else {
      level = quantize(target)
    }
    if level == 0 && active.isEmpty && nextEvent == events.count && (shaper?.isAtRest ?? true) {
      finished = true
    }
    frameIndex += 1
    return Frame(index: k, level: level, frequency: reportsFrequency ? Int(hz.rounded(.toNearestOrEven)) : 0)
  }

  private mutating func admitVoices(upTo k: Int) {
    while nextEvent < events.count {
      guard startFrames[nextEvent] <= k else { break }
      let event = events[nextEvent]
      nextEvent += 1
      if let voice = Voice.make(event, controls: controls, framePeriod: period, windows: windows),
        voice.endFrame > k
      {
        active.append(voice)
        nextVoiceEnd = Swift.min(nextVoiceEnd, voice.endFrame)
      }
    }
  }

  /// The mixed target drive (fraction of full scale) and frequency at time `t`.
  ///
  /// Voices add in power (a = √Σ aᵢ², incoherent vibrations); the frequency is the power-weighted
  /// mean of the voices' frequencies.
  private mutating func mix(at t: Double, frame k: Int) -> (Double, Double) {
    guard !active.isEmpty else { return (0, lastFrequency) }
    let intensityScale = intensityControl.isConstant ? 1 : intensityControl.value(at: t)
    let sharpnessOffset = sharpnessControl.isConstant ? 0 : sharpnessControl.value(at: t)
    var power = 0.0
    var weightedHz = 0.0
    var crispness = 0.0
    let amplitudeOnly = map.band == nil
    for index in active.indices {
      let intensity: Double
      let sharpness: Double
      switch active[index].kind {
      case .transient:
        intensity = Swift.min(active[index].baseIntensity * active[index].onsetControl, 1)
        sharpness = active[index].baseSharpness
        crispness = 1
      case .continuous:
        let envelope = active[index].envelope(at: Double(k - active[index].startFrame) * period)
        intensity = Swift.min(active[index].baseIntensity * intensityScale, 1) * envelope
        sharpness = Swift.min(Swift.max(active[index].baseSharpness + sharpnessOffset, 0), 1)
        crispness = Swift.max(crispness, amplitudeOnly ? sharpness : 1)
      }
      let hz = active[index].kind == .transient
        ? windows.frequency(sharpness: sharpness) : map.frequency(sharpness: sharpness)
      if intensity != active[index].cachedIntensity || hz != active[index].cachedHz {
        active[index].cachedIntensity = intensity
        active[index].cachedHz = hz
        if hz != active[index].cachedThresholdHz {
          active[index].cachedThresholdHz = hz
          active[index].cachedThreshold = map.threshold(at: hz)
        }
        active[index].cachedAcceleration = map.acceleration(
          intensity: intensity, threshold: active[index].cachedThreshold)
      }
      let g = active[index].cachedAcceleration
      power += g * g
      weightedHz += g * g * hz
    }
    lastCrispness = crispness
    guard power > 0 else { return (0, lastFrequency) }
    // One voice (the common case) or an amplitude-only board: no weighting needed.
    let hz = active.count == 1 || amplitudeOnly ? active[0].cachedHz : weightedHz / power
    lastFrequency = hz
    if power != lastMix.g || hz != lastMix.hz {
      if hz != lastMix.hz { lastRated = map.ratedAcceleration(at: hz) }
      lastMix = (power, hz, map.drive(acceleration: power.squareRoot(), ratedAcceleration: lastRated))
    }
    return (lastMix.drive, hz)
  }

  private func quantize(_ drive: Double) -> Int {
    let level = Int((drive * Double(maxLevel)).rounded(.toNearestOrEven))
    return Swift.min(Swift.max(level, minLevel), maxLevel)
  }
}
