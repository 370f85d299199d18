/// The output half of the renderer for one channel: the mixed target of one or more patterns'
/// voices → target drive (intensity mapping) → overdrive/braking (host-shaped boards) → a
/// quantised level and frequency.
public struct DriveStage: Sendable {
  private let map: PerceptualMap
  /// Which shaper is in use. Both are stored (not optional, not in an enum): a mutating call
  /// on an optional's or an enum's payload copies the whole shaper out and back every frame.
  private enum Shaping: Sendable { case none, envelope, resonator }
  private let shaping: Shaping
  private var envelopeShaper: DriveShaper
  private var resonatorShaper: ResonatorShaper
  private let levels: LevelRange
  private let reportsFrequency: Bool
  private var lastFrequency: Double
  private var lastCrispness = 1.0
  /// The last mixed (power, frequency) and the drive it mapped to.
  private var lastMix = (g: -1.0, hz: -1.0, drive: 0.0)
  /// The rated acceleration at `lastMix.hz`.
  private var lastRated = 0.0

  /// The drive stage of `channel` of `profile`.
  public init(profile: BoardProfile, channel: Int = 0, options: RenderOptions = RenderOptions()) throws(RenderError) {
    if let problem = profile.problem { throw RenderError(board: profile.id, message: problem) }
    guard profile.channels.indices.contains(channel) else {
      throw RenderError(board: profile.id, message: "no channel \(channel) (the board has \(profile.channels.count))")
    }
    let actuator = profile.channels[channel]
    map = PerceptualMap(
      actuator: actuator, frequencyControl: profile.frequencyControl, mapping: options.intensityMapping)
    levels = LevelRange(min: profile.minLevel, max: profile.maxLevel)
    reportsFrequency = profile.frequencyControl != nil
    lastFrequency = map.frequency(sharpness: 0.5)
    // At rest once the modelled vibration is below half the detection threshold.
    let threshold = DetectionThreshold.acceleration(at: actuator.resonantFrequency)
    let stop = 0.5 * threshold * actuator.ratedAmplitude / actuator.ratedAcceleration
    let resolution = 1 / Double(profile.maxLevel)
    let isResonator = actuator.kind == .lra && actuator.qualityFactor != nil
    envelopeShaper = DriveShaper(
      actuator: actuator, framePeriod: profile.framePeriod, stopThreshold: stop, resolution: resolution)
    resonatorShaper = ResonatorShaper(
      actuator: actuator, framePeriod: profile.framePeriod, stopThreshold: stop, resolution: resolution,
      frequencyBand: isResonator
        ? profile.frequencyControl.map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) } : nil)
    shaping = profile.shaping == .driver ? .none : isResonator ? .resonator : .envelope
  }

  /// True when the shaper models the actuator at rest (always on driver-shaped boards).
  public var isAtRest: Bool {
    @inline(__always) get {
      switch shaping {
      case .none: return true
      case .envelope: return envelopeShaper.isAtRest
      case .resonator: return resonatorShaper.isAtRest
      }
    }
  }

  /// The frame `index` for one target.
  @inline(__always)
  public mutating func frame(index: Int, target: FrameTarget) -> Frame {
    if target.power <= 0 && isAtRest {
      return Frame(index: index, level: 0, frequency: reportsFrequency ? Int(target.hz.roundedToEven) : 0)
    }
    return shape(
      index: index, power: target.power, hz: target.hz, crispness: target.crispness, hasVoices: target.hasVoices)
  }

  /// The frame `index` for several patterns' targets mixed: powers add, the frequency is the
  /// power-weighted mean, crispness the largest.
  public mutating func frame(index: Int, targets: [FrameTarget]) -> Frame {
    if targets.count == 1 { return frame(index: index, target: targets[0]) }
    var power = 0.0
    var weighted = 0.0
    var crispness = 0.0
    var hasVoices = false
    for target in targets {
      power += target.power
      weighted += target.weightedHz
      crispness = max(crispness, target.crispness)
      hasVoices = hasVoices || target.hasVoices
    }
    let sounding = targets.filter { $0.power > 0 }
    let hz = sounding.count == 1 ? sounding[0].hz : (power > 0 ? weighted / power : lastFrequency)
    if power <= 0 && isAtRest {
      return Frame(index: index, level: 0, frequency: reportsFrequency ? Int(hz.roundedToEven) : 0)
    }
    return shape(index: index, power: power, hz: hz, crispness: crispness, hasVoices: hasVoices)
  }

  @inline(__always)
  private mutating func shape(index: Int, power: Double, hz: Double, crispness: Double, hasVoices: Bool) -> Frame {
    let target: Double
    if hasVoices { lastCrispness = crispness }
    if power > 0 {
      lastFrequency = hz
      if power != lastMix.g || hz != lastMix.hz {
        if hz != lastMix.hz { lastRated = map.ratedAcceleration(at: hz) }
        lastMix = (power, hz, map.drive(acceleration: power.squareRoot(), ratedAcceleration: lastRated))
      }
      target = lastMix.drive
    } else {
      target = 0
    }
    let frequency = power > 0 ? hz : lastFrequency
    let crispness = lastCrispness
    let level: Int
    switch shaping {
    case .resonator:
      level = resonatorShaper.step(toward: target, crispness: crispness, frequency: frequency, levels: levels)
    case .envelope:
      level = envelopeShaper.step(toward: target, crispness: crispness, levels: levels)
    case .none:
      level = levels.quantize(target)
    }
    return Frame(index: index, level: level, frequency: reportsFrequency ? Int(frequency.roundedToEven) : 0)
  }

}

/// The levels a board takes: quantising a drive (a plain value, so passing it costs nothing).
struct LevelRange: Sendable {
  let min: Int
  let max: Int

  /// The level for a drive (fraction of full scale), rounded and clamped to the range.
  @inline(__always)
  func quantize(_ drive: Double) -> Int {
    let level = Int((drive * Double(max)).roundedToEven)
    return Swift.min(Swift.max(level, min), max)
  }
}

extension Double {
  /// The nearest whole number, ties to even: `rounded(.toNearestOrEven)` without a call into
  /// libm (x86-64's baseline has no rounding instruction). Adding and subtracting 1.5·2⁵² makes
  /// the FPU round to an integer in its default mode; magnitudes of 2⁵¹ and more are whole
  /// numbers already.
  @inline(__always)
  var roundedToEven: Double {
    let magic = 6_755_399_441_055_744.0
    guard abs(self) < 2_251_799_813_685_248.0 else { return self }
    return (self + magic) - magic
  }

  /// The largest whole number not above this one: `rounded(.down)` without a call into libm.
  @inline(__always)
  var roundedDownFast: Double {
    let nearest = roundedToEven
    return nearest > self ? nearest - 1 : nearest
  }
}
