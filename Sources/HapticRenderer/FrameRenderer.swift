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
  private let controls: ControlTimeline
  private var intensityControl: ControlCursor
  private var sharpnessControl: ControlCursor
  private var shaper: DriveShaper?
  private var nextEvent = 0
  private var active: [Voice] = []
  private var frameIndex = 0
  private var lastFrequency: Int
  private var lastCrispness = 1.0
  private var finished = false

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
    controls = ControlTimeline(pattern)
    intensityControl = ControlCursor(.hapticIntensityControl, pattern: pattern)
    sharpnessControl = ControlCursor(.hapticSharpnessControl, pattern: pattern)
    lastFrequency = map.frequency(sharpness: 0.5)
    if profile.shaping == .host {
      // At rest once the modelled vibration is below half the detection threshold.
      let threshold = DetectionThreshold.acceleration(at: actuator.resonantFrequency)
      let stop = 0.5 * threshold * actuator.ratedAmplitude / actuator.ratedAcceleration
      shaper = DriveShaper(
        actuator: actuator, framePeriod: period, stopThreshold: stop,
        resolution: 1 / Double(profile.maxLevel))
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
    let s = Swift.min(Swift.max(sharpness, 0), 1)
    switch actuator.kind {
    case .lra:
      let hz = Double(map.frequency(sharpness: s))
      return Swift.max((2 - s) / hz, 0.004)
    case .erm:
      return 0.060 - 0.035 * s
    }
  }

  /// The next frame, or `nil` after the final zero frame.
  public mutating func next() -> Frame? {
    guard !finished else { return nil }
    let k = frameIndex
    let t = Double(k) * period
    admitVoices(upTo: k)
    active.removeAll { $0.endFrame <= k }

    let (target, hz) = mix(at: t, frame: k)
    var level: Int
    if var shaping = shaper {
      let drive = shaping.drive(toward: target, crispness: lastCrispness)
      level = quantize(drive)
      shaping.advance(sent: Double(level) / Double(profile.maxLevel), target: target)
      shaper = shaping
    } else {
      level = quantize(target)
    }
    if level == 0 && active.isEmpty && nextEvent == events.count && (shaper?.isAtRest ?? true) {
      finished = true
    }
    frameIndex += 1
    return Frame(index: k, level: level, frequency: profile.frequencyControl == nil ? 0 : hz)
  }

  private mutating func admitVoices(upTo k: Int) {
    while nextEvent < events.count {
      let event = events[nextEvent]
      guard Int((event.time / period).rounded()) <= k else { break }
      nextEvent += 1
      let window = transientWindow
      if let voice = Voice.make(event, controls: controls, framePeriod: period, transientWindow: window) {
        active.append(voice)
      }
    }
  }

  /// The mixed target drive (fraction of full scale) and frequency at time `t`.
  ///
  /// Voices add in power (a = √Σ aᵢ², incoherent vibrations); the frequency is the power-weighted
  /// mean of the voices' frequencies.
  private mutating func mix(at t: Double, frame k: Int) -> (Double, Int) {
    guard !active.isEmpty else { return (0, lastFrequency) }
    let intensityScale = intensityControl.value(at: t)
    let sharpnessOffset = sharpnessControl.value(at: t)
    var power = 0.0
    var weightedHz = 0.0
    var crispness = 0.0
    let amplitudeOnly = map.band == nil
    for voice in active {
      let intensity: Double
      let sharpness: Double
      switch voice.kind {
      case .transient:
        intensity = Swift.min(voice.baseIntensity * voice.onsetControl, 1)
        sharpness = voice.baseSharpness
        crispness = 1
      case .continuous:
        let envelope = voice.envelope(at: Double(k - voice.startFrame) * period)
        intensity = Swift.min(voice.baseIntensity * intensityScale, 1) * envelope
        sharpness = Swift.min(Swift.max(voice.baseSharpness + sharpnessOffset, 0), 1)
        crispness = Swift.max(crispness, amplitudeOnly ? sharpness : 1)
      }
      let hz = map.frequency(sharpness: sharpness)
      let g = map.acceleration(intensity: intensity, hz: hz)
      power += g * g
      weightedHz += g * g * Double(hz)
    }
    lastCrispness = crispness
    guard power > 0 else { return (0, lastFrequency) }
    let hz = Int((weightedHz / power).rounded())
    lastFrequency = hz
    return (map.drive(acceleration: power.squareRoot(), hz: hz), hz)
  }

  private func quantize(_ drive: Double) -> Int {
    let level = Int((drive * Double(profile.maxLevel)).rounded())
    return Swift.min(Swift.max(level, profile.minLevel), profile.maxLevel)
  }
}
