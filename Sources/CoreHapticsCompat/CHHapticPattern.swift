public import Foundation
import HapticAHAP
import HapticCore

/// A haptic pattern (Apple's `CHHapticPattern`): events plus dynamic parameters or curves, from
/// arrays, a dictionary in AHAP's shape, or an AHAP file. A thin wrapper of HapticCore's
/// `HapticPattern`, checked when it is made: values no player can honour throw Apple's errors.
public final class CHHapticPattern: Sendable {
  /// The pattern hapticctl plays.
  let model: HapticPattern
  /// Whether an event plays a registered audio resource (such a pattern cannot be exported).
  let usesAudioResources: Bool

  /// The pattern's length in seconds, by Apple's rule (last event or parameter start, plus
  /// that event's duration).
  public var duration: TimeInterval { model.duration }

  /// Wraps a checked model pattern.
  init(checked model: HapticPattern, usesAudioResources: Bool = false) throws(CHHapticError) {
    if let problem = model.problem { throw CHHapticError(hapticctl: problem.code, problem.message) }
    self.model = model
    self.usesAudioResources = usesAudioResources
  }

  /// Wraps a model pattern known to be playable (an empty one, a preset).
  init(unchecked model: HapticPattern) {
    self.model = model
    usesAudioResources = false
  }

  /// A pattern of events and dynamic parameter steps.
  ///
  /// - Throws: `invalidEventType` / `invalidParameterType` for ids Core Haptics does not
  ///   define; `invalidEventTime`, `invalidEventDuration`, `badEventEntry`,
  ///   `badParameterEntry` for times, durations or values that are not finite (or negative).
  public convenience init(events: [CHHapticEvent], parameters: [CHHapticDynamicParameter]) throws(CHHapticError) {
    var steps: [DynamicParameter] = []
    for parameter in parameters { steps.append(try parameter.model()) }
    try self.init(
      checked: HapticPattern(events: try Self.model(events), parameters: steps),
      usesAudioResources: events.contains { $0.audioResourceID != nil })
  }

  /// A pattern of events and parameter curves (throws as ``init(events:parameters:)``).
  public convenience init(events: [CHHapticEvent], parameterCurves: [CHHapticParameterCurve]) throws(CHHapticError) {
    var curves: [ParameterCurve] = []
    for curve in parameterCurves { curves.append(try curve.model()) }
    try self.init(
      checked: HapticPattern(events: try Self.model(events), curves: curves),
      usesAudioResources: events.contains { $0.audioResourceID != nil })
  }

  /// A pattern read from an AHAP file.
  ///
  /// - Throws: `fileNotFound` when the file is missing, `invalidPatternData` when it is not a
  ///   valid AHAP file (the message names the file, entry and position).
  public convenience init(contentsOf url: URL) throws(CHHapticError) {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw CHHapticError(.fileNotFound, "\(url.path): no such file")
    }
    let read: HapticPattern
    do {
      read = try AHAPReader().read(contentsOf: url.path).pattern
    } catch {
      throw CHHapticError(hapticctl: error.code.appleValue == nil ? .invalidPatternData : error.code, error.description)
    }
    // Waveform paths are relative to the file's folder: resolved now, so the player finds them.
    let events = read.events.map { event -> HapticEvent in
      var event = event
      if let path = event.waveformPath { event.waveformPath = (try? WaveformPath.resolve(path, relativeTo: url.path)) ?? path }
      return event
    }
    try self.init(
      checked: HapticPattern(
        version: read.version, metadata: read.metadata, events: events, parameters: read.parameters, curves: read.curves))
  }

  static func model(_ events: [CHHapticEvent]) throws(CHHapticError) -> [HapticEvent] {
    var result: [HapticEvent] = []
    for (index, event) in events.enumerated() {
      guard let type = HapticEventType(rawValue: event.type.rawValue) else {
        throw CHHapticError(.invalidEventType, "event \(index): unknown event type '\(event.type.rawValue)'")
      }
      var parameters: [EventParameter] = []
      for parameter in event.eventParameters {
        guard let id = EventParameterID(rawValue: parameter.parameterID.rawValue) else {
          throw CHHapticError(
            .invalidParameterType, "event \(index): unknown event parameter '\(parameter.parameterID.rawValue)'")
        }
        parameters.append(EventParameter(id, Double(parameter.value)))
      }
      // Apple: a duration of 0 is "none given".
      let duration: Double? = event.duration == 0 ? nil : event.duration
      var modelEvent = HapticEvent(type, time: event.relativeTime, duration: duration, parameters: parameters)
      if let id = event.audioResourceID {
        let resource = try AudioResources.shared.resource(id)
        modelEvent.waveformPath = resource.path
        modelEvent.waveformUsesVolumeEnvelope = resource.useVolumeEnvelope
        modelEvent.waveformLoopEnabled = resource.loopEnabled
      }
      result.append(modelEvent)
    }
    return result
  }
}
