import HapticCore
import HapticRenderer
import HapticSimulator

/// The board lanes of a ``PatternView``: the renderer's frames and the simulated actuator.
extension PatternView {
  /// The longest pattern drawn, seconds (a view holds three values per frame and channel: a
  /// 15-minute pattern is 2.7 million numbers per channel).
  static let maxDuration = 900.0

  /// Each channel's drive (the renderer's frames, as the board plays them) and the simulated
  /// acceleration's peak per frame (``HapticSimulator/PatternSimulation`` on the board's
  /// actuators, ring-down included), in one pass.
  static func channels(_ pattern: HapticPattern, profile: BoardProfile) throws(RenderError) -> [Channel] {
    var simulation = try PatternSimulation(
      pattern: pattern, configuration: SimulatorConfiguration(profile: profile), options: RenderOptions(maxDuration: maxDuration))
    var lanes = FrameLanes(framePeriod: profile.framePeriod, maxLevel: Double(profile.maxLevel), channels: profile.channels.count)
    simulation.run(into: &lanes)
    return profile.channels.enumerated().map { index, channel in
      var lane = lanes.lanes[index]
      // One length for the three arrays: the drive padded with rest through the ring-down.
      let length = max(lane.g.count, lane.level.count)
      lane.g = lane.g.map(rounded) + Array(repeating: 0, count: length - lane.g.count)
      lane.level += Array(repeating: 0, count: length - lane.level.count)
      lane.hz += Array(repeating: 0, count: length - lane.hz.count)
      return Channel(
        channel: index, kind: channel.kind.rawValue, rate: 1 / profile.framePeriod, level: lane.level, hz: lane.hz, g: lane.g)
    }
  }

  /// A simulation trace that keeps each channel's frames (level and frequency) and the largest
  /// |acceleration| in each frame.
  struct FrameLanes: SimulationTrace {
    struct Lane {
      var level: [Double] = []
      var hz: [Double] = []
      var g: [Double] = []
    }
    let framePeriod: Double
    let maxLevel: Double
    var lanes: [Lane]

    init(framePeriod: Double, maxLevel: Double, channels: Int) {
      self.framePeriod = framePeriod
      self.maxLevel = maxLevel
      lanes = Array(repeating: Lane(), count: channels)
    }

    mutating func frame(_ frame: Frame, channel: Int) {
      lanes[channel].level.append(PatternView.rounded(Double(frame.level) / maxLevel))
      lanes[channel].hz.append(Double(frame.frequency))
    }

    mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
      // A step ending at `time` belongs to the frame it started in.
      let frame = max(Int(((time - 1e-9) / framePeriod).rounded(.down)), 0)
      while lanes[channel].g.count <= frame { lanes[channel].g.append(0) }
      lanes[channel].g[frame] = max(lanes[channel].g[frame], abs(acceleration))
    }
  }

  /// The `Time` of each entry of an AHAP document's `Pattern` array (an event's, a parameter's or
  /// a curve's), nil where it has none; empty when the text is not JSON to the server's parser
  /// (`JSONValue.parse`, the AHAP reader's: the lenient reader's comments are
  /// not, and its warnings then have no moment).
  static func entryTimes(_ bytes: [UInt8]) -> [Double?] {
    guard case .object(let root)? = try? JSONValue.parse(bytes, field: "body", what: "the document"),
      case .array(let entries)? = root["Pattern"]
    else { return [] }
    return entries.map { entry in
      guard case .object(let members) = entry else { return nil }
      for key in ["Event", "Parameter", "ParameterCurve"] {
        if case .object(let body)? = members[key], case .number(let time)? = body["Time"] { return time }
      }
      return nil
    }
  }

  /// The entry a diagnostic's path names: `Pattern[3].Event.Time` → 3.
  static func entryIndex(_ path: String) -> Int? {
    guard path.hasPrefix("Pattern["), let close = path.firstIndex(of: "]") else { return nil }
    return Int(path[path.index(path.startIndex, offsetBy: "Pattern[".count)..<close])
  }
}
