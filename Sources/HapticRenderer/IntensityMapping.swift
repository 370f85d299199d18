import Foundation

/// How perceived intensity (0…1) becomes a target acceleration.
public enum IntensityMapping: String, Sendable, Hashable, CaseIterable, Codable {
  /// Android 16's rule: intensity is linear in dB of sensation level (acceleration above the
  /// detection threshold at the drive frequency); any intensity > 0 is perceptible.
  case sensationLevel = "sensation-level"
  /// Lofelt's rule: acceleration ∝ intensity² (the inverse of their `intensity = √amplitude`).
  case square
}

/// The vibrotactile detection threshold in dB re 1 G (Android's `MIN_PERCEPTIBLE_CURVE`).
public enum DetectionThreshold {
  /// (Hz, dB re 1 G) points; linear in dB between them, held flat beyond the ends.
  public static let curve: [(hz: Double, db: Double)] = [
    (10, -48.90), (20, -40.36), (40, -32.81), (60, -31.77), (100, -31.90), (150, -31.35),
    (200, -30.86), (250, -28.98), (300, -26.81), (400, -19.81),
  ]

  /// The threshold at `hz` in dB re 1 G.
  public static func decibels(at hz: Double) -> Double {
    guard let first = curve.first, let last = curve.last else { return -30 }
    if hz <= first.hz { return first.db }
    if hz >= last.hz { return last.db }
    for (a, b) in zip(curve, curve.dropFirst()) where hz <= b.hz {
      return a.db + (b.db - a.db) * (hz - a.hz) / (b.hz - a.hz)
    }
    return last.db
  }

  /// The threshold at `hz` in G.
  public static func acceleration(at hz: Double) -> Double {
    pow(10, decibels(at: hz) / 20)
  }
}

/// Intensity and sharpness → drive level and frequency for one actuator channel.
///
/// Built once per channel; per-Hz tables make the per-frame work a lookup and one `exp`.
///
/// Intensity spans what the actuator can do **at the drive frequency**: intensity 1 is rated
/// drive there, and with the sensation-level mapping intensity I asks for
/// I·SL₀ + I²·(SL(f) − SL₀) dB above the detection threshold, SL(f) being the sensation level
/// rated drive reaches at f and SL₀ the one every frequency of the sharpness band reaches. So no
/// part of the intensity range is clipped at rated drive (no flat top), every intensity above 0
/// is felt, and middle intensities sound about equally loud across sharpness (the strength
/// only resonance has comes in toward the top). The sharpness band of a frequency-capable LRA is the run of frequencies
/// around its strongest one where rated drive stays within ``maxTiltDecibels`` of that
/// strongest acceleration (and at least 10 dB above threshold), so full intensity is strong
/// at both edges and loudness changes by at most that much across sharpness.
struct PerceptualMap: Sendable {
  /// The largest loudness change across the sharpness band at intensity 1, dB.
  static let maxTiltDecibels = 12.0
  /// The smallest sensation level at rated drive a band frequency must reach, dB.
  static let minBandSensationLevel = 10.0

  let actuator: ActuatorModel
  let mapping: IntensityMapping
  /// The sharpness band in whole Hz (`fmin...fmax`), or `nil` on amplitude-only boards.
  let band: ClosedRange<Int>?
  private let tableStart: Int
  private let thresholdDB: [Double]
  /// Rated acceleration (G) and the sensation level it reaches (dB, ≥ 0) every
  /// 1 / ``finePerHz`` Hz: fine enough that linear interpolation is smooth at the scale of a
  /// control-rate ramp's tolerance (a per-Hz table's kinks near resonance were not), and a
  /// lookup instead of a square root and a logarithm per change of frequency.
  private let fineAcceleration: [Double]
  private let fineLevel: [Double]
  /// Entries per hertz of the fine tables.
  static let finePerHz = 8
  /// The sensation level every frequency of the sharpness band reaches at rated drive (its
  /// weakest one's); ∞ without a band.
  private let commonLevel: Double
  /// The drive frequency (Hz) every 1 / (count − 1) of sharpness (``SharpnessWarp``); empty
  /// without a band.
  private let sharpnessHz: [Double]

  init(actuator: ActuatorModel, frequencyControl: ClosedRange<Double>?, mapping: IntensityMapping) {
    self.actuator = actuator
    self.mapping = mapping
    let f0 = Int(actuator.resonantFrequency.rounded())
    var low = f0
    var high = f0
    if let range = frequencyControl {
      low = Int(range.lowerBound.rounded(.up))
      high = max(low, Int(range.upperBound.rounded(.down)))
    }
    tableStart = low
    var thresholds: [Double] = []
    var accelerations: [Double] = []
    for hz in low...high {
      thresholds.append(DetectionThreshold.decibels(at: Double(hz)))
      accelerations.append(Self.ratedAcceleration(actuator, at: Double(hz)))
    }
    thresholdDB = thresholds
    let levels = zip(accelerations, thresholds).map { 20 * log10($0) - $1 }
    var fineAcceleration: [Double] = []
    var fineLevel: [Double] = []
    for step in 0...((high - low) * Self.finePerHz) {
      let hz = Double(low) + Double(step) / Double(Self.finePerHz)
      let a = Self.ratedAcceleration(actuator, at: hz)
      fineAcceleration.append(a)
      fineLevel.append(max(20 * log10(a) - DetectionThreshold.decibels(at: hz), 0))
    }
    self.fineAcceleration = fineAcceleration
    self.fineLevel = fineLevel
    band = frequencyControl == nil ? nil : Self.band(accelerations: accelerations, levels: levels, start: low)
    if let band {
      commonLevel = levels[(band.lowerBound - low)...(band.upperBound - low)].min() ?? 0
      sharpnessHz = SharpnessWarp(band: band, acceleration: { Self.ratedAcceleration(actuator, at: $0) }).table
    } else {
      commonLevel = .infinity
      sharpnessHz = []
    }
  }

  /// The run of whole hertz around the strongest frequency where rated drive is within
  /// ``maxTiltDecibels`` of the strongest acceleration and ≥ ``minBandSensationLevel`` above
  /// threshold; `nil` when even the strongest frequency misses the latter.
  private static func band(accelerations: [Double], levels: [Double], start: Int) -> ClosedRange<Int>? {
    guard let peak = accelerations.indices.max(by: { accelerations[$0] < accelerations[$1] }) else { return nil }
    let floor = accelerations[peak] * pow(10, -maxTiltDecibels / 20)
    func usable(_ index: Int) -> Bool { accelerations[index] >= floor && levels[index] >= minBandSensationLevel }
    guard usable(peak) else { return nil }
    var first = peak
    var last = peak
    while first > 0 && usable(first - 1) { first -= 1 }
    while last + 1 < accelerations.count && usable(last + 1) { last += 1 }
    return (start + first)...(start + last)
  }

  /// Steady-state acceleration at rated drive and `hz`: for an LRA the acceleration response
  /// of a force-driven resonator, r²·|H(f)| / |H(f0)| with r = f/f0; for an ERM its rated
  /// acceleration (its frequency follows its speed).
  static func ratedAcceleration(_ actuator: ActuatorModel, at hz: Double) -> Double {
    guard actuator.kind == .lra, let q = actuator.qualityFactor else {
      return actuator.ratedAcceleration
    }
    let r = hz / actuator.resonantFrequency
    let magnitude = 1 / ((1 - r * r) * (1 - r * r) + (r / q) * (r / q)).squareRoot()
    // Acceleration of a force-driven mass: r² times the displacement response.
    return actuator.ratedAcceleration * r * r * magnitude / q
  }

  /// The drive frequency in Hz for `sharpness` (``SharpnessWarp``: the strongest frequency at
  /// sharpness 0.5, the band's edges at 0 and 1, the loudness falling off as |2s − 1|³ of the
  /// edge's fall between), or the resonant
  /// frequency on amplitude-only boards. Not rounded: the table interpolates, so a sharpness
  /// sweep gives a smooth target; frames round it to whole Hz.
  @inline(__always)
  func frequency(sharpness: Double) -> Double {
    guard sharpnessHz.count > 1 else { return actuator.resonantFrequency }
    return Self.lerp(sharpnessHz, at: min(max(sharpness, 0), 1) * Double(sharpnessHz.count - 1))
  }

  /// Linear interpolation in `table` at fractional index `position` (clamped to the table; a
  /// single-entry table is a constant).
  @inline(__always)
  private static func lerp(_ table: [Double], at position: Double) -> Double {
    if table.count == 1 { return table[0] }
    let position = min(max(position, 0), Double(table.count - 1))
    let lower = Int(position)
    guard lower + 1 < table.count else { return table[lower] }
    return table[lower] + (table[lower + 1] - table[lower]) * (position - Double(lower))
  }

  /// Linear interpolation in a per-Hz table at `hz` (a single-entry table is a constant).
  @inline(__always)
  private func interpolate(_ table: [Double], _ hz: Double) -> Double {
    Self.lerp(table, at: hz - Double(tableStart))
  }

  /// The detection threshold in dB re 1 G at `hz`.
  @inline(__always)
  func threshold(at hz: Double) -> Double {
    interpolate(thresholdDB, hz)
  }

  /// Linear interpolation in a fine table at `hz`.
  @inline(__always)
  private func interpolateFine(_ table: [Double], _ hz: Double) -> Double {
    Self.lerp(table, at: (hz - Double(tableStart)) * Double(Self.finePerHz))
  }

  /// The sensation level rated drive reaches at `hz`, dB above the threshold (≥ 0).
  @inline(__always)
  func sensationLevel(at hz: Double) -> Double {
    interpolateFine(fineLevel, hz)
  }

  /// The target acceleration in G for `intensity` at `hz`; 0 for intensity 0.
  func acceleration(intensity: Double, hz: Double) -> Double {
    acceleration(intensity: intensity, threshold: threshold(at: hz), level: sensationLevel(at: hz))
  }

  /// The target acceleration in G for `intensity` where the detection threshold is
  /// `threshold` dB re 1 G and rated drive reaches `level` dB above it.
  @inline(__always)
  func acceleration(intensity: Double, threshold: Double, level: Double) -> Double {
    guard intensity > 0 else { return 0 }
    // 10^(dB/20) as exp(dB · ln10/20): the same value, without the cost of `pow`.
    let decibelToRatio = 0.11512925464970229
    let i = min(intensity, 1)
    switch mapping {
    case .sensationLevel:
      // Equal loudness across the band up to what all of it can do; the extra strength near
      // resonance comes in toward the top of the range (i²), so a sharpness sweep at a middle
      // intensity keeps its loudness and intensity 1 is still rated drive.
      let common = min(level, commonLevel)
      return exp((i * common + i * i * (level - common) + threshold) * decibelToRatio)
    case .square:
      return i * i * exp((level + threshold) * decibelToRatio)
    }
  }

  /// The drive level (fraction of full scale, ≤ the rated amplitude) that gives acceleration
  /// `g` at `hz`: linear for an LRA, square-root for an ERM (its acceleration ∝ speed²).
  func drive(acceleration g: Double, hz: Double) -> Double {
    drive(acceleration: g, ratedAcceleration: ratedAcceleration(at: hz))
  }

  /// The actuator's acceleration at rated drive at `hz` (from the fine table, so the drive of
  /// intensity 1 is rated drive at any frequency).
  @inline(__always)
  func ratedAcceleration(at hz: Double) -> Double {
    interpolateFine(fineAcceleration, hz)
  }

  /// ``drive(acceleration:hz:)`` with the rated acceleration at the frequency already looked up.
  @inline(__always)
  func drive(acceleration g: Double, ratedAcceleration rated: Double) -> Double {
    drive(acceleration: g, perRatedAcceleration: 1 / rated)
  }

  /// ``drive(acceleration:ratedAcceleration:)`` with the reciprocal of the rated acceleration
  /// (a multiplication per frame instead of a division).
  @inline(__always)
  func drive(acceleration g: Double, perRatedAcceleration inverse: Double) -> Double {
    guard g > 0 else { return 0 }
    let ratio = min(g * inverse, 1)
    let level = actuator.kind == .erm ? ratio.squareRoot() : ratio
    return actuator.ratedAmplitude * level
  }
}
