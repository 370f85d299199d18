import HapticCore

extension AHAPWalker {
  static let eventKeys: Set<String> = [
    "Time", "EventType", "EventDuration", "EventParameters", "EventWaveformPath",
    "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled",
  ]

  /// Apple's cap on continuous events; longer ones load with a warning and play whole.
  static let appleContinuousCap = 30.0

  func readEvent(_ value: JSONValue, path: String) -> HapticEvent? {
    guard case .object(let object) = value.kind else {
      error(.badEventEntry, path, at: value.offset, "an Event must be an object, found \(value.typeDescription)")
      return nil
    }
    let fields = members(of: object, path: path, known: Self.eventKeys, context: "an Event")
    let errorsBefore = errorCount

    var type: HapticEventType?
    if let typeValue = fields["EventType"] {
      if let name = string(typeValue, "\(path).EventType", code: .invalidEventType) {
        type = HapticEventType(rawValue: name)
        if type == nil {
          let known = HapticEventType.allCases.map(\.rawValue).joined(separator: ", ")
          error(
            .invalidEventType, "\(path).EventType", at: typeValue.offset,
            "unknown event type \"\(name)\" (expected one of \(known))")
        }
      }
    } else {
      error(.badEventEntry, "\(path).EventType", at: value.offset, "the event has no EventType")
    }

    var time = 0.0
    if let timeValue = fields["Time"] {
      time = self.time(timeValue, "\(path).Time", code: .invalidEventTime) ?? 0
    } else {
      warn(.defaultApplied, "\(path).Time", at: value.offset, "the event has no Time; it starts at 0")
    }

    var duration: Double?
    if let durationValue = fields["EventDuration"] {
      if let d = number(durationValue, "\(path).EventDuration", code: .invalidEventDuration) {
        if d < 0 {
          error(
            .invalidEventDuration, "\(path).EventDuration", at: durationValue.offset,
            "negative duration \(AHAPNumberFormat.string(d)) s (durations must be ≥ 0)")
        } else {
          duration = d
        }
      }
    }

    var parameters: [EventParameter] = []
    if let list = fields["EventParameters"] {
      parameters = readEventParameters(list, path: "\(path).EventParameters", type: type)
    }

    var event = HapticEvent(type ?? .hapticTransient, time: time, duration: duration, parameters: parameters)
    readWaveformFields(fields, path: path, event: &event, typeKnown: type != nil, offset: value.offset)
    guard errorCount == errorsBefore, let type else { return nil }

    if type.isContinuous {
      checkContinuousDuration(event, fields: fields, path: path, offset: value.offset)
    }
    return event
  }

  private func checkContinuousDuration(
    _ event: HapticEvent, fields: [String: JSONValue], path: String, offset: Int
  ) {
    let durationPath = "\(path).EventDuration"
    guard let duration = event.duration else {
      if event.isSustained {
        warn(
          .defaultApplied, durationPath, at: offset,
          "the \(event.type.rawValue) event has no EventDuration; it is taken as 0 s (only its attack and release play)")
      }
      return
    }
    if duration == 0 && event.isSustained {
      warn(
        .defaultApplied, durationPath, at: fields["EventDuration"]?.offset,
        "the sustained \(event.type.rawValue) event has EventDuration 0; only its attack and release play")
    }
    if duration > Self.appleContinuousCap {
      warn(
        .longEvent, durationPath, at: fields["EventDuration"]?.offset,
        "\(AHAPNumberFormat.string(duration)) s is longer than Apple's 30 s cap on continuous events; hapticctl plays the full duration")
    }
  }

  private func readEventParameters(
    _ list: JSONValue, path: String, type: HapticEventType?
  ) -> [EventParameter] {
    guard case .array(let items) = list.kind else {
      error(.badEventEntry, path, at: list.offset, "EventParameters must be an array, found \(list.typeDescription)")
      return []
    }
    var result: [EventParameter] = []
    for (index, item) in items.enumerated() {
      let itemPath = "\(path)[\(index)]"
      guard case .object(let object) = item.kind else {
        error(.badParameterEntry, itemPath, at: item.offset, "an event parameter must be an object, found \(item.typeDescription)")
        continue
      }
      let fields = members(
        of: object, path: itemPath, known: ["ParameterID", "ParameterValue"], context: "an event parameter")
      guard let idValue = fields["ParameterID"] else {
        error(.badParameterEntry, "\(itemPath).ParameterID", at: item.offset, "the event parameter has no ParameterID")
        continue
      }
      guard let name = string(idValue, "\(itemPath).ParameterID", code: .badParameterEntry) else { continue }
      guard let valueField = fields["ParameterValue"] else {
        error(.badParameterEntry, "\(itemPath).ParameterValue", at: item.offset, "the event parameter \(name) has no ParameterValue")
        continue
      }
      guard let raw = number(valueField, "\(itemPath).ParameterValue", code: .badParameterEntry) else { continue }
      guard let id = EventParameterID(rawValue: name) else {
        let hint = DynamicParameterID(rawValue: name) != nil ? " (it is a dynamic parameter: use a Parameter or ParameterCurve entry)" : ""
        error(.invalidParameterType, "\(itemPath).ParameterID", at: idValue.offset, "unknown event parameter \"\(name)\"\(hint)")
        continue
      }
      if let type, !type.applicableParameters.contains(id) {
        warn(.ignoredField, "\(itemPath).ParameterID", at: idValue.offset, "\(name) has no effect on \(type.rawValue) events; kept but ignored at playback")
      }
      var value = clamped(raw, to: id.range, "\(itemPath).ParameterValue", at: valueField.offset, name: name)
      if id == .sustained && value != 0 && value != 1 {
        warn(.valueClamped, "\(itemPath).ParameterValue", at: valueField.offset, "Sustained should be 0 or 1; \(AHAPNumberFormat.string(value)) is read as 1 (sustained)")
        value = 1
      }
      if let existing = result.firstIndex(where: { $0.id == id }) {
        warn(.duplicateKey, itemPath, at: item.offset, "\(name) is given twice for this event; the last value is used")
        result[existing].value = value
      } else {
        result.append(EventParameter(id, value))
      }
    }
    return result
  }

  private func readWaveformFields(
    _ fields: [String: JSONValue], path: String, event: inout HapticEvent, typeKnown: Bool,
    offset: Int
  ) {
    let isCustom = event.type == .audioCustom
    if let pathValue = fields["EventWaveformPath"] {
      if isCustom {
        if let text = string(pathValue, "\(path).EventWaveformPath", code: .badEventEntry) {
          if let problem = WaveformPath.lexicalProblem(text) {
            let code: HapticErrorCode = text.isEmpty || text.utf8.contains(0) ? .badEventEntry : .pathEscapes
            error(code, "\(path).EventWaveformPath", at: pathValue.offset, problem)
          } else {
            event.waveformPath = text
          }
        }
      } else if typeKnown {
        warn(.ignoredField, "\(path).EventWaveformPath", at: pathValue.offset, "EventWaveformPath only applies to AudioCustom events; ignored")
      }
    } else if isCustom && typeKnown {
      error(.badEventEntry, "\(path).EventWaveformPath", at: offset, "the AudioCustom event has no EventWaveformPath")
    }
    for key in ["EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled"] {
      guard let value = fields[key] else { continue }
      guard isCustom else {
        if typeKnown {
          warn(.ignoredField, "\(path).\(key)", at: value.offset, "\(key) only applies to AudioCustom events; ignored")
        }
        continue
      }
      let flag = bool(value, "\(path).\(key)", code: .badEventEntry)
      if key == "EventWaveformLoopEnabled" {
        event.waveformLoopEnabled = flag
      } else {
        event.waveformUsesVolumeEnvelope = flag
      }
    }
  }
}
