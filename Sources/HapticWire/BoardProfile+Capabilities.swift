public import HapticRenderer

/// The renderer profile a board's announced capabilities imply (what the engine renders for
/// when no board file says otherwise, docs/boards.md §1.2). Here, beside the capabilities,
/// because the renderer knows nothing of the wire.
extension BoardProfile {
  /// The renderer profile for a board: the built-in profile of its board id when there is one,
  /// else one derived from its capabilities (signed levels with braking → host shaping;
  /// otherwise the driver shapes).
  public init(capabilities: BoardCapabilities) {
    if let known = BoardProfile.builtIn(id: capabilities.boardID) {
      self = known
      return
    }
    let channels = capabilities.channels.map { channel -> ActuatorModel in
      switch channel.kind {
      case .erm:
        return ActuatorModel(
          kind: .erm, resonantFrequency: channel.resonantFrequency, qualityFactor: nil, ratedAcceleration: 1,
          ratedAmplitude: 0.75, driveTimeConstant: 0.05, coastTimeConstant: 0.08)
      case .lra, .none:
        // Each LRA channel with its own announced range (when the board controls frequency).
        var lra = ActuatorModel.lra(
          f0: channel.resonantFrequency, q: channel.qualityFactor ?? 11, ratedAcceleration: 1.5,
          ratedAmplitude: capabilities.features.contains(.signedLevels) ? 0.5 : 1)
        if capabilities.features.contains(.frequencyControl) {
          lra.frequencyControl = channel.frequencyRange.map { Double($0.lowerBound)...Double($0.upperBound) }
        }
        return lra
      }
    }
    let signed = capabilities.features.contains(.signedLevels)
    self.init(
      id: capabilities.boardID, name: "\(capabilities.boardID) (\(capabilities.firmwareName))", channels: channels,
      frequencyControl: nil,
      framePeriod: Double(capabilities.framePeriodMicroseconds) / 1e6,
      amplitudeBits: capabilities.channels.first?.amplitudeBits ?? 8, amplitudeSigned: signed,
      shaping: signed && capabilities.features.contains(.braking) ? .host : .driver)
  }
}
