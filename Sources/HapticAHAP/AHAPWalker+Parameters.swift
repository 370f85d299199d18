import HapticCore

extension AHAPWalker {
  /// Curves with more points than this load with a warning (Lofelt's and Meta's converters
  /// chunk at 16; Apple publishes no limit).
  static let softControlPointLimit = 16

  func readParameter(_ value: JSONValue, path: () -> String) -> DynamicParameter? {
    guard case .object(let object) = value.kind else {
      error(.badParameterEntry, path(), at: value.offset, "a Parameter must be an object, found \(value.typeDescription)")
      return nil
    }
    let fields = members(
      of: object, path: path, known: [.parameterID, .parameterValue, .time], context: "a Parameter")
    let errorsBefore = errorCount
    let id = dynamicID(fields[.parameterID], path: path, offset: value.offset, entry: "Parameter")
    var raw: Double?
    if let valueField = fields[.parameterValue] {
      raw = number(valueField, "\(path()).ParameterValue", code: .badParameterEntry)
    } else {
      error(.badParameterEntry, "\(path()).ParameterValue", at: value.offset, "the Parameter has no ParameterValue")
    }
    let time = entryTime(fields[.time], path: path, offset: value.offset, entry: "Parameter")
    guard errorCount == errorsBefore, let id, let raw, let valueField = fields[.parameterValue] else {
      return nil
    }
    let clampedValue = clamped(
      raw, to: id.range, "\(path()).ParameterValue", at: valueField.offset, name: id.rawValue)
    return DynamicParameter(id, value: clampedValue, time: time)
  }

  func readCurve(_ value: JSONValue, path: () -> String) -> ParameterCurve? {
    guard case .object(let object) = value.kind else {
      error(.badParameterEntry, path(), at: value.offset, "a ParameterCurve must be an object, found \(value.typeDescription)")
      return nil
    }
    let fields = members(
      of: object, path: path, known: [.parameterID, .time, .parameterCurveControlPoints],
      context: "a ParameterCurve")
    let errorsBefore = errorCount
    let id = dynamicID(fields[.parameterID], path: path, offset: value.offset, entry: "ParameterCurve")
    let time = entryTime(fields[.time], path: path, offset: value.offset, entry: "ParameterCurve")
    guard let pointsValue = fields[.parameterCurveControlPoints] else {
      error(.badParameterEntry, "\(path()).ParameterCurveControlPoints", at: value.offset, "the ParameterCurve has no ParameterCurveControlPoints")
      return nil
    }
    guard case .array(let items) = pointsValue.kind else {
      error(
        .badParameterEntry, "\(path()).ParameterCurveControlPoints", at: pointsValue.offset,
        "ParameterCurveControlPoints must be an array, found \(pointsValue.typeDescription)")
      return nil
    }
    var points: [ParameterCurve.ControlPoint] = []
    for (index, item) in items.enumerated() {
      if let point = readControlPoint(item, path: { "\(path()).ParameterCurveControlPoints[\(index)]" }, id: id, curveTime: time) {
        points.append(point)
      }
    }
    guard errorCount == errorsBefore, let id else { return nil }
    guard !points.isEmpty else {
      warn(.curveConvention, "\(path()).ParameterCurveControlPoints", at: pointsValue.offset, "the curve has no control points; ignored")
      return nil
    }
    checkConventions(&points, path: { "\(path()).ParameterCurveControlPoints" }, offset: pointsValue.offset, curveTime: time)
    return ParameterCurve(id, time: time, controlPoints: points)
  }

  private func readControlPoint(
    _ item: JSONValue, path: () -> String, id: DynamicParameterID?, curveTime: Double
  ) -> ParameterCurve.ControlPoint? {
    guard case .object(let object) = item.kind else {
      error(.badParameterEntry, path(), at: item.offset, "a control point must be an object, found \(item.typeDescription)")
      return nil
    }
    let fields = members(of: object, path: path, known: [.time, .parameterValue], context: "a control point")
    var time: Double?
    if let timeValue = fields[.time] {
      time = self.time(timeValue, "\(path()).Time", code: .badParameterEntry)
      if let t = time, options.controlPointTimes == .absolute {
        time = t - curveTime
        if t < curveTime {
          error(
            .badParameterEntry, "\(path()).Time", at: timeValue.offset,
            "absolute control-point time \(AHAPNumberFormat.string(t)) s is before the curve's start \(AHAPNumberFormat.string(curveTime)) s")
          time = nil
        }
      }
    } else {
      error(.badParameterEntry, "\(path()).Time", at: item.offset, "the control point has no Time")
    }
    var raw: Double?
    if let valueField = fields[.parameterValue] {
      raw = number(valueField, "\(path()).ParameterValue", code: .badParameterEntry)
    } else {
      error(.badParameterEntry, "\(path()).ParameterValue", at: item.offset, "the control point has no ParameterValue")
    }
    guard let time, let raw else { return nil }
    guard let id, let valueField = fields[.parameterValue] else {
      return ParameterCurve.ControlPoint(time: time, value: raw)
    }
    let value = clamped(raw, to: id.range, "\(path()).ParameterValue", at: valueField.offset, name: id.rawValue)
    return ParameterCurve.ControlPoint(time: time, value: value)
  }

  /// Sorts unsorted points (stable, with a warning) and notes soft-limit and convention issues.
  private func checkConventions(
    _ points: inout [ParameterCurve.ControlPoint], path: () -> String, offset: Int, curveTime: Double
  ) {
    if zip(points, points.dropFirst()).contains(where: { $0.time > $1.time }) {
      warn(.curveConvention, path(), at: offset, "control points are not in time order; sorted by time")
      points = points.stableSorted(by: \.time)
    }
    if points.count > Self.softControlPointLimit {
      warn(
        .curveConvention, path(), at: offset,
        "\(points.count) control points; Lofelt's and Meta's converters stop at \(Self.softControlPointLimit) per curve (hapticctl plays them all)")
    }
    if let last = points.last, points.count >= 2, points[points.count - 2].time == last.time {
      warn(
        .curveConvention, path(), at: offset,
        "the last two control points share the time \(AHAPNumberFormat.string(last.time)) s; the last value holds from then on")
    }
    if options.controlPointTimes == .relative, curveTime > 0, points.count >= 2,
      points[0].time == curveTime
    {
      absoluteCandidates.append((path(), curveTime, points[points.count - 1].time))
    }
  }

  private func dynamicID(
    _ value: JSONValue?, path: () -> String, offset: Int, entry: String
  ) -> DynamicParameterID? {
    guard let value else {
      error(.badParameterEntry, "\(path()).ParameterID", at: offset, "the \(entry) has no ParameterID")
      return nil
    }
    guard let name = string(value, "\(path()).ParameterID", code: .badParameterEntry) else { return nil }
    if let id = DynamicParameterID(rawValue: name) { return id }
    let hint =
      EventParameterID(rawValue: name) != nil
      ? " (it is an event parameter; dynamic ones end in Control, e.g. HapticIntensityControl)"
      : Suggestion.hint(for: name, among: DynamicParameterID.allCases.map(\.rawValue))
    error(.invalidParameterType, "\(path()).ParameterID", at: value.offset, "unknown dynamic parameter \"\(name)\"\(hint)")
    return nil
  }

  private func entryTime(_ value: JSONValue?, path: () -> String, offset: Int, entry: String) -> Double {
    guard let value else {
      warn(.defaultApplied, "\(path()).Time", at: offset, "the \(entry) has no Time; it starts at 0")
      return 0
    }
    return time(value, "\(path()).Time", code: .badParameterEntry) ?? 0
  }
}
