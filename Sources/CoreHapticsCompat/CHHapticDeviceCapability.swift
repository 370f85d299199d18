import HapticCore

/// What the hardware can do (Apple's `CHHapticDeviceCapability`).
public protocol CHHapticDeviceCapability {
  /// Whether haptics play (the configured board reports an actuator).
  var supportsHaptics: Bool { get }
  /// Whether audio events play (an audio output opens).
  var supportsAudio: Bool { get }
  /// The range and default of an event parameter for an event type.
  func attributes(forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType) throws
    -> any CHHapticParameterAttributes
  /// The range and default of a dynamic parameter.
  func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws -> any CHHapticParameterAttributes
}

/// A parameter's range and default (Apple's `CHHapticParameterAttributes`).
public protocol CHHapticParameterAttributes {
  var minValue: Float { get }
  var maxValue: Float { get }
  var defaultValue: Float { get }
}

struct ParameterAttributes: CHHapticParameterAttributes {
  let minValue: Float
  let maxValue: Float
  let defaultValue: Float
}

/// The answer for the configured board; the ranges and defaults are the model's (Apple's
/// table, docs/semantics.md §1–2).
struct BoardCapability: CHHapticDeviceCapability {
  let supportsHaptics: Bool
  let supportsAudio: Bool

  func attributes(forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType) throws
    -> any CHHapticParameterAttributes
  {
    guard let id = EventParameterID(rawValue: inParameter.rawValue) else {
      throw CHHapticError(.invalidParameterType, "unknown event parameter '\(inParameter.rawValue)'")
    }
    guard let kind = HapticEventType(rawValue: type.rawValue) else {
      throw CHHapticError(.invalidEventType, "unknown event type '\(type.rawValue)'")
    }
    return ParameterAttributes(
      minValue: Float(id.range.lowerBound), maxValue: Float(id.range.upperBound), defaultValue: Float(id.defaultValue(for: kind)))
  }

  func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws -> any CHHapticParameterAttributes {
    let id = try inParameter.model()
    return ParameterAttributes(
      minValue: Float(id.range.lowerBound), maxValue: Float(id.range.upperBound), defaultValue: Float(id.defaultValue))
  }
}
