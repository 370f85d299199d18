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
  /// 1 / the rated acceleration at `lastMix.hz`.
  private var lastPerRated = 0.0
  /// A target the stage has settled on: while it repeats, so does the frame (the shaper feeds
  /// a constant target forward), and a repeat only advances the shaper's model.
  private struct Settled: Sendable {
    var target = FrameTarget.silent(hz: -1)
    var valid = false
    var level = 0
    var frequency = 0
    /// The target drive and the drive sent (the quantised level), as fractions of full scale.
    var drive = 0.0
    var sent = 0.0
  }
  private var settled = Settled()
  /// Whether the last shaped frame was one that ``Settled`` may repeat.
  private var lastStepHolds = false
  /// Transient priority over the continuous part of the mix.
  private var ducking: TransientDucking

  /// The drive stage of `channel` of `profile`.
  public init(profile: BoardProfile, channel: Int = 0, options: RenderOptions = RenderOptions()) throws(RenderError) {
    if let problem = profile.problem { throw RenderError(board: profile.id, message: problem) }
    guard profile.channels.indices.contains(channel) else {
      throw RenderError(board: profile.id, message: "no channel \(channel) (the board has \(profile.channels.count))")
    }
    let actuator = profile.channels[channel]
    map = PerceptualMap.shared(
      actuator: actuator, frequencyControl: actuator.frequencyControl, mapping: options.intensityMapping)
    levels = LevelRange(min: profile.minLevel, max: profile.maxLevel)
    reportsFrequency = actuator.frequencyControl != nil
    lastFrequency = map.frequency(sharpness: 0.5)
    ducking = TransientDucking(framePeriod: profile.framePeriod)
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
        ? actuator.frequencyControl.map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) } : nil)
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
  public mutating func frame(index: Int, target raw: FrameTarget) -> Frame {
    let target = ducking.apply(raw, index: index)
    if isSettled(on: target) {
      advanceSettled()
      return Frame(index: index, level: settled.level, frequency: settled.frequency)
    }
    if target.power <= 0 && isAtRest {
      settled.valid = false
      if shaping == .resonator { resonatorShaper.rest() }
      return Frame(index: index, level: 0, frequency: reportsFrequency ? Int(target.hz.roundedToEven) : 0)
    }
    let frame = shape(
      index: index, power: target.power, hz: target.hz, crispness: target.crispness, hasVoices: target.hasVoices)
    settled.valid = lastStepHolds
    if lastStepHolds {
      settled.target = target
      settled.level = frame.level
      settled.frequency = frame.frequency
      settled.drive = lastMix.drive
      settled.sent = Double(frame.level) * levels.resolution
    }
    return frame
  }

  /// Whether the last frame was settled on `target`: until the target changes, every frame
  /// repeats it (``repeatSettled(count:)`` advances the shaper's model over such repeats).
  @inline(__always)
  func isSettled(on target: FrameTarget) -> Bool {
    settled.valid && settled.target == target
  }

  /// Advances the shaper's model over `count` repeats of the settled frame, as `count` calls
  /// of ``frame(index:target:)`` with the settled target would.
  mutating func repeatSettled(count: Int) {
    ducking.repeated(settled.target, count: count)
    for _ in 0..<count { advanceSettled() }
  }

  /// One repeat of the settled frame: the shaper's model advances with the settled drive.
  @inline(__always)
  private mutating func advanceSettled() {
    switch shaping {
    case .resonator: resonatorShaper.repeatStep(sent: settled.sent, target: settled.drive)
    case .envelope: envelopeShaper.advance(sent: settled.sent, target: settled.drive)
    case .none: break
    }
  }

  /// The frame `index` for several patterns' targets mixed: powers add, the frequency is the
  /// power-weighted mean (a lone sounding target's own), crispness the largest; transients
  /// duck the continuous part of the mix as for one pattern.
  public mutating func frame(index: Int, targets: [FrameTarget]) -> Frame {
    if targets.count == 1 { return frame(index: index, target: targets[0]) }
    var mixed = FrameTarget.silent(hz: lastFrequency)
    var sounding = 0
    var soundingHz = 0.0
    for target in targets {
      mixed.power += target.power
      mixed.weightedHz += target.weightedHz
      mixed.transientPower += target.transientPower
      mixed.transientWeightedHz += target.transientWeightedHz
      mixed.transientAhead = mixed.transientAhead || target.transientAhead
      mixed.transientNext = mixed.transientNext || target.transientNext
      mixed.crispness = max(mixed.crispness, target.crispness)
      mixed.hasVoices = mixed.hasVoices || target.hasVoices
      if target.power > 0 {
        sounding += 1
        soundingHz = target.hz
      }
    }
    mixed.hz = sounding == 1 ? soundingHz : (mixed.power > 0 ? mixed.weightedHz / mixed.power : lastFrequency)
    let target = ducking.apply(mixed, index: index)
    settled.valid = false
    if target.power <= 0 && isAtRest {
      if shaping == .resonator { resonatorShaper.rest() }
      return Frame(index: index, level: 0, frequency: reportsFrequency ? Int(target.hz.roundedToEven) : 0)
    }
    return shape(
      index: index, power: target.power, hz: target.hz, crispness: target.crispness, hasVoices: target.hasVoices)
  }

  @inline(__always)
  private mutating func shape(index: Int, power: Double, hz: Double, crispness: Double, hasVoices: Bool) -> Frame {
    let target: Double
    if hasVoices { lastCrispness = crispness }
    if power > 0 {
      lastFrequency = hz
      if power != lastMix.g || hz != lastMix.hz {
        if hz != lastMix.hz { lastPerRated = 1 / map.ratedAcceleration(at: hz) }
        lastMix = (power, hz, map.drive(acceleration: power.squareRoot(), perRatedAcceleration: lastPerRated))
      }
      target = lastMix.drive
    } else {
      target = 0
    }
    var frequency = power > 0 ? hz : lastFrequency
    let crispness = lastCrispness
    let level: Int
    switch shaping {
    case .resonator:
      level = resonatorShaper.step(
        toward: target, crispness: crispness, frequency: frequency, levels: levels, style: ducking.style)
      lastStepHolds = resonatorShaper.lastStepHolds
      frequency = resonatorShaper.frequencyInUse
    case .envelope:
      lastStepHolds = envelopeShaper.holds(target)
      level = envelopeShaper.step(toward: target, crispness: crispness, levels: levels)
    case .none:
      lastStepHolds = target > 0
      level = levels.quantize(target)
    }
    return Frame(index: index, level: level, frequency: reportsFrequency ? Int(frequency.roundedToEven) : 0)
  }

}

/// The levels a board takes: quantising a drive (a plain value, so passing it costs nothing).
struct LevelRange: Sendable {
  let min: Int
  let max: Int
  /// One level as a fraction of full scale.
  var resolution: Double { 1 / Double(max) }

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
