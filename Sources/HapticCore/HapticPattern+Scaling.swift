extension HapticPattern {
  /// The pattern played at `factor` (0…1) of its intensity, as a player's intensity control at
  /// `factor` would play it: every `HapticIntensityControl` parameter and curve point of the
  /// pattern is multiplied by `factor`, and one at `factor` starts the pattern (before the
  /// pattern's own entries at time 0, which win ties as later entries do). A rig timeline's
  /// per-actuator intensity (docs/rigs.md). Which events it scales is the pattern's
  /// ``intensityControlScope``.
  public func scalingIntensity(by factor: Double) -> HapticPattern {
    let factor = min(max(factor, 0), 1)
    guard factor != 1 else { return self }
    let parameters = parameters.map { parameter -> DynamicParameter in
      guard parameter.id == .hapticIntensityControl else { return parameter }
      var scaled = parameter
      scaled.value *= factor
      return scaled
    }
    let curves = curves.map { curve -> ParameterCurve in
      guard curve.id == .hapticIntensityControl else { return curve }
      var scaled = curve
      scaled.controlPoints = curve.controlPoints.map { ParameterCurve.ControlPoint(time: $0.time, value: $0.value * factor) }
      return scaled
    }
    var pattern = HapticPattern(
      version: version, metadata: metadata, events: events,
      parameters: [DynamicParameter(.hapticIntensityControl, value: factor, time: 0)] + parameters, curves: curves)
    pattern.intensityControlScope = intensityControlScope
    pattern.intensityLaw = intensityLaw
    return pattern
  }
}
