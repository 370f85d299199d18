public import HapticCore

/// Builds random, valid patterns from a seed (SplitMix64), for property tests.
///
/// Values are produced the way a reader would leave them: finite, non-negative times, values
/// within their ranges, at most one entry per event parameter ID, control points in time order.
public struct PatternGenerator {
  private var rng: SplitMix
  private let maxTime: Double
  private let maxDuration: Double

  /// Creates a generator; the same seed gives the same patterns.
  ///
  /// - Parameters:
  ///   - seed: the random seed.
  ///   - maxTime: the latest event, parameter or curve start, in seconds.
  ///   - maxDuration: the longest event duration, in seconds.
  public init(seed: UInt64, maxTime: Double = 100, maxDuration: Double = 120) {
    rng = SplitMix(seed: seed)
    self.maxTime = maxTime
    self.maxDuration = maxDuration
  }

  private mutating func next() -> UInt64 { rng.next() }

  private mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// A double in `range`; sometimes an edge, a short decimal, or an arbitrary bit pattern.
  private mutating func double(_ range: ClosedRange<Double>) -> Double {
    let unit = Double(next() >> 11) / Double(1 << 53)
    switch int(0...5) {
    case 0: return range.lowerBound
    case 1: return range.upperBound
    case 2: return ((range.lowerBound + unit * (range.upperBound - range.lowerBound)) * 1000).rounded() / 1000
    default: return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
  }

  private mutating func bool() -> Bool { next() & 1 == 0 }

  /// The next random pattern.
  public mutating func pattern() -> HapticPattern {
    var events: [HapticEvent] = []
    for _ in 0..<int(0...12) { events.append(event()) }
    var parameters: [DynamicParameter] = []
    for _ in 0..<int(0...5) {
      let id = DynamicParameterID.allCases[int(0...DynamicParameterID.allCases.count - 1)]
      parameters.append(DynamicParameter(id, value: double(id.range), time: double(0...maxTime * 0.4)))
    }
    var curves: [ParameterCurve] = []
    for _ in 0..<int(0...4) {
      let id = DynamicParameterID.allCases[int(0...DynamicParameterID.allCases.count - 1)]
      var t = 0.0
      var points: [ParameterCurve.ControlPoint] = []
      for _ in 0..<int(1...20) {
        points.append(ParameterCurve.ControlPoint(time: t, value: double(id.range)))
        if int(0...4) > 0 { t += double(0...maxTime * 0.02) }
      }
      curves.append(ParameterCurve(id, time: double(0...maxTime * 0.3), controlPoints: points))
    }
    var metadata: [MetadataEntry] = []
    if bool() {
      metadata = [MetadataEntry("Project", "p \"q\" \\ é ✓ \n\t\u{1}"), MetadataEntry("Created", "today")]
    }
    return HapticPattern(
      version: bool() ? 1 : 1.5, metadata: metadata, events: events, parameters: parameters, curves: curves)
  }

  private mutating func event() -> HapticEvent {
    let type = HapticEventType.allCases[int(0...3)]
    var event = HapticEvent(type, time: double(0...maxTime))
    if type.isContinuous || bool() { event.duration = double(0...maxDuration) }
    for id in type.applicableParameters where bool() {
      event.set(id, id == .sustained ? (bool() ? 0 : 1) : double(id.range))
    }
    if type == .audioCustom {
      event.waveformPath = bool() ? "sounds/hit \(int(0...9)).wav" : "a/b/../c.wav"
      if bool() { event.waveformUsesVolumeEnvelope = bool() }
      if bool() { event.waveformLoopEnabled = bool() }
    }
    return event
  }
}
