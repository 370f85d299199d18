public import Foundation
import HapticCore

/// A dynamic parameter step (Apple's `CHHapticDynamicParameter`): from `relativeTime` on, it
/// scales or offsets every event of its kind.
public final class CHHapticDynamicParameter {
  /// A dynamic parameter (Apple's `CHHapticDynamicParameter.ID`).
  public struct ID: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let hapticIntensityControl = ID(rawValue: "HapticIntensityControl")
    public static let hapticSharpnessControl = ID(rawValue: "HapticSharpnessControl")
    public static let hapticAttackTimeControl = ID(rawValue: "HapticAttackTimeControl")
    public static let hapticDecayTimeControl = ID(rawValue: "HapticDecayTimeControl")
    public static let hapticReleaseTimeControl = ID(rawValue: "HapticReleaseTimeControl")
    public static let audioVolumeControl = ID(rawValue: "AudioVolumeControl")
    public static let audioPanControl = ID(rawValue: "AudioPanControl")
    public static let audioPitchControl = ID(rawValue: "AudioPitchControl")
    public static let audioBrightnessControl = ID(rawValue: "AudioBrightnessControl")
    public static let audioAttackTimeControl = ID(rawValue: "AudioAttackTimeControl")
    public static let audioDecayTimeControl = ID(rawValue: "AudioDecayTimeControl")
    public static let audioReleaseTimeControl = ID(rawValue: "AudioReleaseTimeControl")
  }

  /// Which parameter.
  public let parameterID: ID
  /// Its value.
  public var value: Float
  /// Seconds from the pattern's start (or, sent to a player, from `atTime:`).
  public var relativeTime: TimeInterval

  /// Creates a step.
  public init(parameterID: ID, value: Float, relativeTime time: TimeInterval) {
    self.parameterID = parameterID
    self.value = value
    relativeTime = time
  }

  /// The model's step, or `badParameterEntry` for an unknown id.
  func model() throws(CHHapticError) -> DynamicParameter {
    DynamicParameter(try parameterID.model(), value: Double(value), time: relativeTime)
  }
}

extension CHHapticDynamicParameter.ID {
  /// The model's id, or `invalidParameterType` for one Core Haptics does not define.
  func model() throws(CHHapticError) -> DynamicParameterID {
    guard let id = DynamicParameterID(rawValue: rawValue) else {
      throw CHHapticError(.invalidParameterType, "unknown dynamic parameter '\(rawValue)'")
    }
    return id
  }
}

/// A parameter curve (Apple's `CHHapticParameterCurve`): a dynamic parameter interpolated
/// linearly between control points, whose times are relative to the curve's start.
public final class CHHapticParameterCurve {
  /// One point of a curve (Apple's `CHHapticParameterCurve.ControlPoint`).
  public final class ControlPoint {
    /// Seconds from the curve's start.
    public var relativeTime: TimeInterval
    /// The value there.
    public var value: Float

    /// Creates a point.
    public init(relativeTime: TimeInterval, value: Float) {
      self.relativeTime = relativeTime
      self.value = value
    }
  }

  /// Which parameter.
  public let parameterID: CHHapticDynamicParameter.ID
  /// The points, in time order.
  public let controlPoints: [ControlPoint]
  /// Seconds from the pattern's start (a player's `scheduleParameterCurve` replaces it).
  public var relativeTime: TimeInterval

  /// Creates a curve.
  public init(parameterID: CHHapticDynamicParameter.ID, controlPoints: [ControlPoint], relativeTime: TimeInterval) {
    self.parameterID = parameterID
    self.controlPoints = controlPoints
    self.relativeTime = relativeTime
  }

  /// The model's curve, or `invalidParameterType` for an unknown id.
  func model() throws(CHHapticError) -> ParameterCurve {
    ParameterCurve(
      try parameterID.model(), time: relativeTime,
      controlPoints: controlPoints.map { ParameterCurve.ControlPoint(time: $0.relativeTime, value: Double($0.value)) })
  }
}
