import HapticAHAP

/// `signals.continuous.envelopes`: the amplitude and frequency breakpoints and their rules.
extension ClipWalker {
  typealias Envelopes = (amplitude: [HapticClip.AmplitudeBreakpoint], frequency: [HapticClip.FrequencyBreakpoint])

  func signals(_ value: JSONValue) -> Envelopes? {
    guard let signals = members(value, "signals") else { return nil }
    var envelopes: Envelopes?
    for member in signals {
      guard member.key == "continuous" else {
        warning("signals.\(member.key)", "unknown signal: ignored", at: member.keyOffset)
        continue
      }
      guard let continuous = members(member.value, "signals.continuous") else { return nil }
      for inner in continuous {
        guard inner.key == "envelopes" else {
          warning("signals.continuous.\(inner.key)", "unknown field: ignored", at: inner.keyOffset)
          continue
        }
        envelopes = self.envelopes(inner.value)
      }
    }
    if envelopes == nil && errors.isEmpty {
      error("signals.continuous.envelopes", "missing: the amplitude envelope is required", at: value)
    }
    return envelopes
  }

  private func envelopes(_ value: JSONValue) -> Envelopes? {
    let base = "signals.continuous.envelopes"
    guard let members = members(value, base) else { return nil }
    var amplitude: [HapticClip.AmplitudeBreakpoint]?
    var amplitudeOffset = 0
    var frequency: [Point] = []
    for member in members {
      switch member.key {
      case "amplitude":
        amplitudeOffset = member.value.offset
        amplitude = points(member.value, "\(base).amplitude", valueKey: "amplitude").map { point in
          HapticClip.AmplitudeBreakpoint(time: point.time, amplitude: point.value, emphasis: point.emphasis)
        }
      case "frequency": frequency = points(member.value, "\(base).frequency", valueKey: "frequency")
      default: warning("\(base).\(member.key)", "unknown envelope: ignored", at: member.keyOffset)
      }
    }
    guard let amplitude else {
      error("\(base).amplitude", "missing: a clip needs an amplitude envelope", at: value)
      return nil
    }
    if amplitude.isEmpty && errors.isEmpty {
      error("\(base).amplitude", "empty: a clip needs at least one amplitude breakpoint", at: value)
    }
    if let message = ClipShape.lengthWarning(amplitude) { warning("\(base).amplitude", message, at: amplitudeOffset) }
    if let last = frequency.last, let end = amplitude.last, let message = ClipShape.frequencyWarning(last: last.time, end: end.time) {
      warning("\(base).frequency[\(last.index)].time", message, at: last.offset)
    }
    return (amplitude, frequency.map { HapticClip.FrequencyBreakpoint(time: $0.time, frequency: $0.value) })
  }

  /// A breakpoint read, with where it stands in the file (for later diagnostics).
  private struct Point {
    var time: Double
    var value: Double
    var emphasis: HapticClip.Emphasis?
    var index: Int
    var offset: Int
  }

  /// The breakpoints of one envelope: `{time, <valueKey>[, emphasis]}` objects, times
  /// non-decreasing, values in 0…1.
  private func points(_ value: JSONValue, _ path: String, valueKey: String) -> [Point] {
    guard case .array(let items) = value.kind else {
      error(path, "expected an array of breakpoints, found \(value.brief)", at: value)
      return []
    }
    var points: [Point] = []
    for (index, item) in items.enumerated() {
      let here = "\(path)[\(index)]"
      guard let members = members(item, here) else { continue }
      var time: Double?
      var level: Double?
      var emphasis: HapticClip.Emphasis?
      var emphasisValue: JSONValue?
      for member in members {
        switch member.key {
        case "time": time = number(member.value, "\(here).time", range: 0...HapticClipReader.maximumTime)
        case valueKey: level = number(member.value, "\(here).\(valueKey)", range: 0...1)
        case "emphasis" where valueKey == "amplitude":
          emphasisValue = member.value
          emphasis = self.emphasis(member.value, "\(here).emphasis")
        default: warning("\(here).\(member.key)", "unknown field: ignored", at: member.keyOffset)
        }
      }
      if time == nil && !members.contains(where: { $0.key == "time" }) { error("\(here).time", "missing", at: item) }
      if level == nil && !members.contains(where: { $0.key == valueKey }) { error("\(here).\(valueKey)", "missing", at: item) }
      guard let time, let level else { continue }
      if let previous = points.last, time < previous.time {
        error("\(here).time", "\(time) s goes back in time (the breakpoint before is at \(previous.time) s)", at: item)
      }
      if let emphasis, emphasis.amplitude < level, let emphasisValue {
        error(
          "\(here).emphasis.amplitude",
          "\(emphasis.amplitude) is below the breakpoint's amplitude \(level) (an emphasis must stand out)", at: emphasisValue)
      }
      points.append(Point(time: time, value: level, emphasis: emphasis, index: index, offset: item.offset))
    }
    return points
  }

  private func emphasis(_ value: JSONValue, _ path: String) -> HapticClip.Emphasis? {
    guard let members = members(value, path) else { return nil }
    var amplitude: Double?
    var frequency: Double?
    for member in members {
      switch member.key {
      case "amplitude": amplitude = number(member.value, "\(path).amplitude", range: 0...1)
      case "frequency": frequency = number(member.value, "\(path).frequency", range: 0...1)
      default: warning("\(path).\(member.key)", "unknown field: ignored", at: member.keyOffset)
      }
    }
    guard let amplitude, let frequency else {
      if !members.contains(where: { $0.key == "amplitude" }) { error("\(path).amplitude", "missing", at: value) }
      if !members.contains(where: { $0.key == "frequency" }) { error("\(path).frequency", "missing", at: value) }
      return nil
    }
    return HapticClip.Emphasis(amplitude: amplitude, frequency: frequency)
  }

  func number(_ value: JSONValue, _ path: String, range: ClosedRange<Double>) -> Double? {
    guard case .number(let number) = value.kind, number.isFinite else {
      error(path, "expected a number, found \(value.brief)", at: value)
      return nil
    }
    guard range.contains(number) else {
      let expected = range.upperBound == 1 && range.lowerBound == 0 ? "0…1" : "0…\(AHAPNumberFormat.string(range.upperBound)) s, 24 h"
      error(path, "\(AHAPNumberFormat.string(number)) is out of range (\(expected))", at: value)
      return nil
    }
    return number
  }
}
