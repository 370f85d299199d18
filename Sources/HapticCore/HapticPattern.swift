/// A haptic pattern: events plus dynamic parameters and parameter curves on one timeline.
///
/// The counterpart of Core Haptics' `CHHapticPattern` and of one AHAP file. Each list is kept in
/// time order; ties keep the order they were given in (a stable sort), so a pattern read from a
/// file, written and read again is equal to the first.
public struct HapticPattern: Sendable, Hashable {
  /// The AHAP `Version` (1.0 when a file gives none).
  public var version: Double
  /// The AHAP `Metadata` entries in file order (not part of the pattern's behaviour).
  public var metadata: [MetadataEntry]
  /// The events, sorted by time (stable).
  public private(set) var events: [HapticEvent]
  /// The `Parameter` entries, sorted by time (stable).
  public private(set) var parameters: [DynamicParameter]
  /// The `ParameterCurve` entries, sorted by time (stable).
  public private(set) var curves: [ParameterCurve]
  /// Which events `HapticIntensityControl` scales: every haptic event (Core Haptics, AHAP), or
  /// continuous events only (a `.haptic` clip, whose emphases keep their own strength).
  public var intensityControlScope: IntensityControlScope = .allHapticEvents
  /// What an intensity means: Core Haptics' perceptual intensity (AHAP), or the square root of a
  /// linear drive amplitude (a `.haptic` clip's amplitude, as Lofelt and Meta render it).
  public var intensityLaw: IntensityLaw = .perceptual

  /// How a player turns intensity into strength (docs/semantics.md §15.1 and §17).
  public enum IntensityLaw: Sendable, Hashable {
    /// The board's perceptual model: every intensity above 0 felt, equal steps of loudness.
    case perceptual
    /// Intensity² is the fraction of rated drive's acceleration at the drive frequency:
    /// a clip's amplitude *a* (intensity √*a*) drives *a* × rated, as Meta's renderer does.
    case amplitudeSquareRoot
  }

  /// Which events the intensity control scales (docs/semantics.md §3 and §17).
  public enum IntensityControlScope: Sendable, Hashable {
    /// Transients and continuous events: Core Haptics' rule, and every AHAP file's.
    case allHapticEvents
    /// Continuous events only: a transient plays at its own intensity whatever the control.
    /// A `.haptic` clip's emphases do (Lofelt's SDK plays them as a pattern of their own).
    case continuousEvents
  }

  /// Creates a pattern, stable-sorting each list by time.
  ///
  /// - Parameters:
  ///   - version: the AHAP version to record.
  ///   - metadata: free-form metadata entries.
  ///   - events: the events, in any order.
  ///   - parameters: dynamic parameter steps, in any order.
  ///   - curves: parameter curves, in any order.
  public init(
    version: Double = 1, metadata: [MetadataEntry] = [], events: [HapticEvent] = [],
    parameters: [DynamicParameter] = [], curves: [ParameterCurve] = []
  ) {
    self.version = version
    self.metadata = metadata
    self.events = events.stableSorted(by: \.time)
    self.parameters = parameters.stableSorted(by: \.time)
    self.curves = curves.stableSorted(by: \.time)
  }

  /// Adds an event, keeping time order (after existing events at the same time).
  public mutating func add(_ event: HapticEvent) {
    let index = events.firstIndex(where: { $0.time > event.time }) ?? events.endIndex
    events.insert(event, at: index)
  }

  /// Adds a dynamic parameter step, keeping time order.
  public mutating func add(_ parameter: DynamicParameter) {
    let index = parameters.firstIndex(where: { $0.time > parameter.time }) ?? parameters.endIndex
    parameters.insert(parameter, at: index)
  }

  /// Adds a parameter curve, keeping time order.
  public mutating func add(_ curve: ParameterCurve) {
    let index = curves.firstIndex(where: { $0.time > curve.time }) ?? curves.endIndex
    curves.insert(curve, at: index)
  }

  /// The pattern's duration in seconds, by Apple's rule.
  ///
  /// The latest of: each event's start plus its duration (if it has one), each `Parameter`'s
  /// time, and each curve's last control point. Release tails of continuous events are not
  /// included (Apple's `duration` excludes them); a renderer plays them after this time.
  public var duration: Double {
    var end = 0.0
    for event in events { end = max(end, event.logicalEnd) }
    for parameter in parameters { end = max(end, parameter.time) }
    for curve in curves { end = max(end, curve.end) }
    return end
  }

  /// True when the pattern has no entries at all.
  public var isEmpty: Bool { events.isEmpty && parameters.isEmpty && curves.isEmpty }

  /// The number of control points over all curves.
  public var controlPointCount: Int { curves.reduce(0) { $0 + $1.controlPoints.count } }
}
