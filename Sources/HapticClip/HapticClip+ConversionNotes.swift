import HapticAHAP
import HapticCore

extension HapticClip {
  /// What a pattern loses or has rendered on its way into a clip (``converting(_:tolerance:)``).
  static func lossNotes(_ pattern: HapticPattern, sampler: PatternSampler) -> [ClipConversion.Note] {
    var notes: [ClipConversion.Note] = []
    let audio = pattern.events.filter { !$0.type.isHaptic }
    if let first = audio.first {
      notes.append(
        .init(.lost, time: first.time, "\(count(audio.count, "audio event")) (\(first.type.rawValue) first): a .haptic clip carries no audio"))
    }
    for span in overlaps(sampler.sounds) {
      notes.append(
        .init(
          .lost, time: span.lowerBound, until: span.upperBound,
          "continuous events overlap: mixed into one envelope (in power) and one sharpness (power-weighted)"))
    }
    let shaped = sampler.sounds.filter { sound in
      let shape = sound.envelope
      return shape.attack > 0 || (!shape.sustained && shape.decay > 0) || (shape.releaseStart.isFinite && shape.release > 0)
    }
    if let first = shaped.first {
      notes.append(
        .init(
          .rendered, time: first.event.time,
          "the attack, decay and release of \(count(shaped.count, "continuous event")) are rendered into the amplitude envelope (linear, as hapticctl plays them)"))
    }
    let controlled: [DynamicParameterID] = [
      .hapticIntensityControl, .hapticSharpnessControl, .hapticAttackTimeControl, .hapticDecayTimeControl, .hapticReleaseTimeControl,
    ]
    for id in controlled {
      let steps = pattern.parameters.filter { $0.id == id }
      let curves = pattern.curves.filter { $0.id == id }
      guard steps.count + curves.count > 0 else { continue }
      let first = min(steps.first?.time ?? .infinity, curves.first?.effectiveStart ?? .infinity)
      let parts = [steps.isEmpty ? nil : count(steps.count, "Parameter step"), curves.isEmpty ? nil : count(curves.count, "ParameterCurve")]
      notes.append(
        .init(.rendered, time: first, "\(id.rawValue) (\(parts.compactMap { $0 }.joined(separator: ", "))): rendered into the envelopes"))
    }
    let audioControls = Set(pattern.parameters.map(\.id) + pattern.curves.map(\.id)).filter { !$0.isHaptic }
    if !audioControls.isEmpty {
      notes.append(.init(.lost, "audio controls (\(audioControls.map(\.rawValue).sorted().joined(separator: ", "))): a .haptic clip carries no audio"))
    }
    return notes
  }

  /// The clip's metadata from the pattern's: `Project`, `Description`, and the keys
  /// ``HapticClip/metadataEntries`` writes for the clip's other fields (`Author`, `Editor`,
  /// `Source`, `Tags`), so a clip survives the trip through AHAP. Other keys are noted as
  /// dropped, `Created` among them: Apple's files keep a date there, which is no author (it
  /// used to become one); a `.haptic` file has no date field.
  static func metadata(_ pattern: HapticPattern, notes: inout [ClipConversion.Note]) -> Metadata {
    var metadata = Metadata()
    var dropped: [String] = []
    for entry in pattern.metadata {
      switch entry.key {
      case "Project": metadata.project = entry.value
      case "Description": metadata.description = entry.value
      case "Author": metadata.author = entry.value
      case "Editor": metadata.editor = entry.value
      case "Source": metadata.source = entry.value
      case "Tags":
        metadata.tags = entry.value.split(separator: ",").map { tag in
          String(tag.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }.filter { !$0.isEmpty }
      default: dropped.append(entry.key)
      }
    }
    if metadata.editor.isEmpty { metadata.editor = "hapticctl" }
    if !dropped.isEmpty {
      notes.append(.init(.dropped, "metadata \(dropped.joined(separator: ", ")): a .haptic file has no field for it"))
    }
    return metadata
  }

  /// The spans where two or more continuous events sound at once.
  static func overlaps(_ sounds: [PatternSampler.Sound]) -> [ClosedRange<Double>] {
    let audible = sounds.filter { $0.event.value(of: .hapticIntensity) > 0 }
    var edges = audible.flatMap { [($0.event.time, 1), ($0.end, -1)] }
    edges.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
    var spans: [ClosedRange<Double>] = []
    var depth = 0
    var start = 0.0
    for (time, step) in edges {
      let before = depth
      depth += step
      if before < 2 && depth >= 2 { start = time }
      if before >= 2 && depth < 2 && time > start {
        if let last = spans.last, last.upperBound >= start {
          spans[spans.count - 1] = last.lowerBound...time
        } else {
          spans.append(start...time)
        }
      }
    }
    return spans
  }

  private static func count(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }
}
