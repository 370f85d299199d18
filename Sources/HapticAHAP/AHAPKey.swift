/// The keys of the AHAP format. The parser recognises them while scanning and tags their nodes,
/// so the reader matches keys by number instead of comparing strings.
///
/// The raw value is the key's index in ``KnownStrings/all`` (the keys come first, in this order).
enum AHAPKey: Int, CaseIterable, Sendable {
  case version
  case metadata
  case pattern
  case event
  case parameter
  case parameterCurve
  case time
  case eventType
  case eventDuration
  case eventParameters
  case eventWaveformPath
  case eventWaveformUseVolumeEnvelope
  case eventWaveformLoopEnabled
  case parameterID
  case parameterValue
  case parameterCurveControlPoints

  /// The key as written in AHAP files.
  var name: String {
    switch self {
    case .version: return "Version"
    case .metadata: return "Metadata"
    case .pattern: return "Pattern"
    case .event: return "Event"
    case .parameter: return "Parameter"
    case .parameterCurve: return "ParameterCurve"
    case .time: return "Time"
    case .eventType: return "EventType"
    case .eventDuration: return "EventDuration"
    case .eventParameters: return "EventParameters"
    case .eventWaveformPath: return "EventWaveformPath"
    case .eventWaveformUseVolumeEnvelope: return "EventWaveformUseVolumeEnvelope"
    case .eventWaveformLoopEnabled: return "EventWaveformLoopEnabled"
    case .parameterID: return "ParameterID"
    case .parameterValue: return "ParameterValue"
    case .parameterCurveControlPoints: return "ParameterCurveControlPoints"
    }
  }
}
