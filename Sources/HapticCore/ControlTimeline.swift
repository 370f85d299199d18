/// The value of every dynamic parameter over a pattern's timeline.
///
/// Built from a pattern's `Parameter` entries and `ParameterCurve`s. For each ID, the entry that
/// took effect last wins: a `Parameter` takes effect at its time, a curve at its first control
/// point. Before any entry the control has its neutral default (1 for intensity/volume, 0 for
/// the others); after a curve's last point its last value holds. Entries taking effect at the
/// same moment resolve in the pattern's order (parameters in time order, then curves in time
/// order, each stable), so the one listed later wins.
public struct ControlTimeline: Sendable {
  /// What an entry contributes: a fixed value or a curve.
  enum Source: Sendable {
    case step(Double)
    case curve(ParameterCurve)
  }

  struct Entry: Sendable {
    let start: Double
    let source: Source
  }

  /// Entries per control, indexed by ``DynamicParameterID/ordinal``.
  private var entries: [[Entry]] = Array(repeating: [], count: DynamicParameterID.allCases.count)

  /// Builds the timeline of `pattern`'s controls.
  public init(_ pattern: HapticPattern) {
    self.init(parameters: pattern.parameters, curves: pattern.curves)
  }

  /// Builds a timeline from parameter steps and curves (times in seconds, one time base).
  public init(parameters: [DynamicParameter], curves: [ParameterCurve]) {
    var collected = Array(repeating: [Entry](), count: DynamicParameterID.allCases.count)
    for parameter in parameters {
      collected[parameter.id.ordinal].append(Entry(start: parameter.time, source: .step(parameter.value)))
    }
    for curve in curves {
      collected[curve.id.ordinal].append(Entry(start: curve.effectiveStart, source: .curve(curve)))
    }
    entries = collected.map { $0.stableSorted(by: \.start) }
  }

  /// The IDs that have at least one entry.
  public var controlledIDs: Set<DynamicParameterID> {
    Set(DynamicParameterID.allCases.filter { !entries[$0.ordinal].isEmpty })
  }

  /// What sets a control at a moment: a step's value, or a curve.
  public enum InForce: Sendable {
    case step(Double)
    case curve(ParameterCurve)
  }

  /// The entry that sets `id` at pattern time `t` (the one that took effect last), or nil
  /// before any entry (the control's default applies).
  public func inForce(_ id: DynamicParameterID, at t: Double) -> InForce? {
    let list = entries[id.ordinal]
    guard let first = list.first, t >= first.start else { return nil }
    // Last entry with start <= t.
    var low = 0
    var high = list.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if list[mid].start <= t { low = mid } else { high = mid - 1 }
    }
    switch list[low].source {
    case .step(let value): return .step(value)
    case .curve(let curve): return .curve(curve)
    }
  }

  /// The value of `id` at pattern time `t` (seconds), clamped to the control's range.
  public func value(_ id: DynamicParameterID, at t: Double) -> Double {
    switch inForce(id, at: t) {
    case nil: return id.defaultValue
    case .step(let value): return id.clamp(value)
    case .curve(let curve): return id.clamp(curve.value(at: t))
    }
  }

  /// The effective value of an event parameter at `t`: the event's own value combined with the
  /// matching control (if any) by Apple's rule, clamped to the parameter's range.
  ///
  /// - Parameters:
  ///   - parameter: the event parameter to evaluate.
  ///   - event: the event whose base value is used.
  ///   - t: pattern time in seconds.
  public func effectiveValue(
    _ parameter: EventParameterID, of event: HapticEvent, at t: Double
  ) -> Double {
    let base = parameter.clamp(event.value(of: parameter))
    guard let control = Self.control(for: parameter, eventType: event.type) else {
      return base
    }
    return control.apply(control: value(control, at: t), to: base)
  }

  /// The dynamic control that modifies `parameter` on events of `eventType`, if any.
  ///
  /// Haptic controls touch haptic events only and audio controls audio events only.
  /// `HapticSharpnessControl` touches continuous haptic events only (Apple's AHAP article).
  public static func control(
    for parameter: EventParameterID, eventType: HapticEventType
  ) -> DynamicParameterID? {
    let haptic = eventType.isHaptic
    switch parameter {
    case .hapticIntensity: return haptic ? .hapticIntensityControl : nil
    case .hapticSharpness: return eventType == .hapticContinuous ? .hapticSharpnessControl : nil
    case .attackTime: return haptic ? .hapticAttackTimeControl : .audioAttackTimeControl
    case .decayTime: return haptic ? .hapticDecayTimeControl : .audioDecayTimeControl
    case .releaseTime: return haptic ? .hapticReleaseTimeControl : .audioReleaseTimeControl
    case .sustained: return nil
    case .audioVolume: return haptic ? nil : .audioVolumeControl
    case .audioPitch: return haptic ? nil : .audioPitchControl
    case .audioPan: return haptic ? nil : .audioPanControl
    case .audioBrightness: return haptic ? nil : .audioBrightnessControl
    }
  }
}
