import HapticCore

extension AHAPWalker {
  static let eventKeys: [AHAPKey] = [
    .time, .eventType, .eventDuration, .eventParameters, .eventWaveformPath,
    .eventWaveformUseVolumeEnvelope, .eventWaveformLoopEnabled,
  ]

  /// Apple's cap on continuous events; longer ones load with a warning and play whole.
  static let appleContinuousCap = 30.0

  /// How much earlier than its `EventDuration` a not-sustained event may fall silent without a
  /// warning (``HapticErrorCode/endsEarly``): 10 ms, a few frames.
  static let earlyEndMargin = 0.010

  func readEvent(_ value: JSONValue, path: () -> String) -> HapticEvent? {
    guard case .object(let object) = value.kind else {
      error(.badEventEntry, path(), at: value.offset, "an Event must be an object, found \(value.typeDescription)")
      return nil
    }
    let fields = members(of: object, path: path, known: Self.eventKeys, context: "an Event")
    let errorsBefore = errorCount

    var type: HapticEventType?
    if let typeValue = fields[.eventType] {
      if let name = string(typeValue, "\(path()).EventType", code: .invalidEventType) {
        type = HapticEventType(rawValue: name)
        if type == nil {
          let known = HapticEventType.allCases.map(\.rawValue).joined(separator: ", ")
          error(
            .invalidEventType, "\(path()).EventType", at: typeValue.offset,
            "unknown event type \"\(name)\"\(Suggestion.hint(for: name, among: HapticEventType.allCases.map(\.rawValue))) (expected one of \(known))")
        }
      }
    } else {
      error(.badEventEntry, "\(path()).EventType", at: value.offset, "the event has no EventType")
    }

    var time = 0.0
    if let timeValue = fields[.time] {
      time = self.time(timeValue, "\(path()).Time", code: .invalidEventTime) ?? 0
    } else {
      warn(.defaultApplied, "\(path()).Time", at: value.offset, "the event has no Time; it starts at 0")
    }

    var duration: Double?
    if let durationValue = fields[.eventDuration] {
      if let d = number(durationValue, "\(path()).EventDuration", code: .invalidEventDuration) {
        if d < 0 {
          error(
            .invalidEventDuration, "\(path()).EventDuration", at: durationValue.offset,
            "negative duration \(AHAPNumberFormat.string(d)) s (durations must be ≥ 0)")
        } else {
          duration = d
        }
      }
    }

    var parameters: [EventParameter] = []
    if let list = fields[.eventParameters] {
      parameters = readEventParameters(list, path: { "\(path()).EventParameters" }, type: type)
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
    _ event: HapticEvent, fields: Fields, path: () -> String, offset: Int
  ) {
        guard let duration = event.duration else {
      if event.isSustained {
        warn(
          .defaultApplied, "\(path()).EventDuration", at: offset,
          "the \(event.type.rawValue) event has no EventDuration; it is taken as 0 s, so only a release tail plays (nothing if it has an attack)")
      }
      return
    }
    if duration == 0 && event.isSustained {
      warn(
        .defaultApplied, "\(path()).EventDuration", at: fields[.eventDuration]?.offset,
        "the sustained \(event.type.rawValue) event has EventDuration 0; only a release tail plays (nothing if it has an attack)")
    }
    // A Sustained 0 event ends when its decay bottoms out (docs/semantics.md §11.4), by its
    // own attack and decay times (dynamic controls may change them as it plays).
    if !event.isSustained {
      let end = EnvelopeTiming.seconds(event.value(of: .attackTime)) + EnvelopeTiming.seconds(event.value(of: .decayTime))
      if duration - end > Self.earlyEndMargin {
        warn(
          .endsEarly, "\(path()).EventDuration", at: fields[.eventDuration]?.offset,
          "the event is not sustained (Sustained 0): it falls silent after its attack and decay, at \(AHAPNumberFormat.string((end * 10_000).rounded() / 10_000)) s, "
            + "\(AHAPNumberFormat.string(((duration - end) * 10_000).rounded() / 10_000)) s before its EventDuration of \(AHAPNumberFormat.string(duration)) s ends (Sustained 1 holds it)")
      }
    }
    if duration > Self.appleContinuousCap {
      warn(
        .longEvent, "\(path()).EventDuration", at: fields[.eventDuration]?.offset,
        "\(AHAPNumberFormat.string(duration)) s is longer than Apple's 30 s cap on continuous events; hapticctl plays the full duration")
    }
  }

  private func readEventParameters(
    _ list: JSONValue, path: () -> String, type: HapticEventType?
  ) -> [EventParameter] {
    guard case .array(let items) = list.kind else {
      error(.badEventEntry, path(), at: list.offset, "EventParameters must be an array, found \(list.typeDescription)")
      return []
    }
    var result: [EventParameter] = []
    for (index, item) in items.enumerated() {
      guard let parameter = readEventParameter(item, path: { "\(path())[\(index)]" }, type: type) else {
        continue
      }
      if let existing = result.firstIndex(where: { $0.id == parameter.id }) {
        warn(
          .duplicateKey, "\(path())[\(index)]", at: item.offset,
          "\(parameter.id.rawValue) is given twice for this event; the last value is used")
        result[existing].value = parameter.value
      } else {
        result.append(parameter)
      }
    }
    return result
  }

  private func readEventParameter(
    _ item: JSONValue, path: () -> String, type: HapticEventType?
  ) -> EventParameter? {
    guard case .object(let object) = item.kind else {
      error(.badParameterEntry, path(), at: item.offset, "an event parameter must be an object, found \(item.typeDescription)")
      return nil
    }
    let fields = members(
      of: object, path: path, known: [.parameterID, .parameterValue], context: "an event parameter")
    guard let idValue = fields[.parameterID] else {
      error(.badParameterEntry, "\(path()).ParameterID", at: item.offset, "the event parameter has no ParameterID")
      return nil
    }
    guard let name = string(idValue, "\(path()).ParameterID", code: .badParameterEntry) else { return nil }
    guard let valueField = fields[.parameterValue] else {
      error(.badParameterEntry, "\(path()).ParameterValue", at: item.offset, "the event parameter \(name) has no ParameterValue")
      return nil
    }
    guard let raw = number(valueField, "\(path()).ParameterValue", code: .badParameterEntry) else { return nil }
    guard let id = EventParameterID(rawValue: name) else {
      let hint =
        DynamicParameterID(rawValue: name) != nil
        ? " (it is a dynamic parameter: use a Parameter or ParameterCurve entry)"
        : Suggestion.hint(for: name, among: EventParameterID.allCases.map(\.rawValue))
      error(.invalidParameterType, "\(path()).ParameterID", at: idValue.offset, "unknown event parameter \"\(name)\"\(hint)")
      return nil
    }
    if let type, !type.applicableParameters.contains(id) {
      warn(.ignoredField, "\(path()).ParameterID", at: idValue.offset, "\(name) has no effect on \(type.rawValue) events; kept but ignored at playback")
    }
    var value = clamped(raw, to: id.range, "\(path()).ParameterValue", at: valueField.offset, name: name)
    if id == .sustained && value != 0 && value != 1 {
      warn(.valueClamped, "\(path()).ParameterValue", at: valueField.offset, "Sustained should be 0 or 1; \(AHAPNumberFormat.string(value)) is read as 1 (sustained)")
      value = 1
    }
    return EventParameter(id, value)
  }

  private func readWaveformFields(
    _ fields: Fields, path: () -> String, event: inout HapticEvent, typeKnown: Bool,
    offset: Int
  ) {
    let isCustom = event.type == .audioCustom
    if let pathValue = fields[.eventWaveformPath] {
      if isCustom {
        if let text = string(pathValue, "\(path()).EventWaveformPath", code: .badEventEntry) {
          if let problem = WaveformPath.lexicalProblem(text) {
            let code: HapticErrorCode = text.isEmpty || text.utf8.contains(0) ? .badEventEntry : .pathEscapes
            error(code, "\(path()).EventWaveformPath", at: pathValue.offset, problem)
          } else {
            event.waveformPath = text
          }
        }
      } else if typeKnown {
        warn(.ignoredField, "\(path()).EventWaveformPath", at: pathValue.offset, "EventWaveformPath only applies to AudioCustom events; ignored")
      }
    } else if isCustom && typeKnown {
      error(.badEventEntry, "\(path()).EventWaveformPath", at: offset, "the AudioCustom event has no EventWaveformPath")
    }
    for key in [AHAPKey.eventWaveformUseVolumeEnvelope, .eventWaveformLoopEnabled] {
      guard let value = fields[key] else { continue }
      guard isCustom else {
        if typeKnown {
          warn(.ignoredField, "\(path()).\(key.name)", at: value.offset, "\(key.name) only applies to AudioCustom events; ignored")
        }
        continue
      }
      let flag = bool(value, "\(path()).\(key.name)", code: .badEventEntry)
      if key == .eventWaveformLoopEnabled {
        event.waveformLoopEnabled = flag
      } else {
        event.waveformUsesVolumeEnvelope = flag
      }
    }
  }
}
