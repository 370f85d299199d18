import HapticAHAP
import HapticClip
import HapticCore

/// What `hapticctl convert` writes for an input and a target, with what the trip loses.
struct ConvertJob {
  /// The output formats.
  enum Target: String, CaseIterable {
    case ahap, haptic
    case androidWaveform = "android-waveform"
    case androidEnvelope = "android-envelope"
  }

  /// How AHAP output is laid out.
  enum Style: String, CaseIterable {
    case plain, lofelt
  }

  let loaded: PatternFileReader.Loaded
  let target: Target
  let style: Style

  /// The pattern the input plays as.
  var pattern: HapticPattern {
    switch loaded {
    case .pattern(let document): document.pattern
    case .clip(let document): document.clip.pattern()
    }
  }

  /// The input as a clip: itself, or the conversion of its pattern (with its notes).
  private var clip: (HapticClip, [ClipConversion.Note]) {
    switch loaded {
    case .clip(let document): return (document.clip, [])
    case .pattern(let document):
      let conversion = HapticClip.converting(document.pattern)
      return (conversion.clip, conversion.notes)
    }
  }

  /// The output bytes and the notes on what they do not carry.
  /// - Throws: ``CLIError`` for an Android effect of a silent pattern (Android takes no empty
  ///   effect).
  func output(input: String) throws -> (bytes: [UInt8], notes: [ClipConversion.Note]) {
    switch (target, style) {
    case (.ahap, .plain):
      guard case .clip(let document) = loaded else { return (AHAPWriter(indent: 2).bytes(pattern), []) }
      return (AHAPWriter(indent: 2).bytes(pattern), Self.emphasisNotes(document.clip, lofelt: false))
    case (.ahap, .lofelt):
      let (clip, notes) = clip
      return (LofeltAHAPWriter().bytes(clip), notes + Self.emphasisNotes(clip, lofelt: true))
    case (.haptic, _):
      let (clip, notes) = clip
      return (HapticClipWriter().bytes(clip), notes)
    case (.androidWaveform, _), (.androidEnvelope, _):
      let form: AndroidEffect.Form = target == .androidWaveform ? .waveform : .envelope
      let effect: AndroidEffect
      do {
        effect = try AndroidEffect(pattern)
      } catch {
        throw CLIError("\(input): \(error); nothing was written")
      }
      guard !effect.waveform.timings.isEmpty else {
        throw CLIError("\(input) is silent: an Android vibration effect cannot be empty; nothing was written")
      }
      return (effect.json(form), effect.notes(form))
    }
  }

  /// What an AHAP file makes of a clip's emphases: in one AHAP file the intensity curve scales
  /// transients too (Core Haptics), so they play weaker than the clip's; Lofelt's converter
  /// also drops an emphasis on the first breakpoint.
  static func emphasisNotes(_ clip: HapticClip, lofelt: Bool) -> [ClipConversion.Note] {
    let emphasized = clip.amplitude.filter { $0.emphasis != nil }
    guard let first = emphasized.first else { return [] }
    var notes = [
      ClipConversion.Note(
        .lost, time: first.time,
        "\(emphasized.count) emphas\(emphasized.count == 1 ? "is" : "es"): in one AHAP file the intensity curve scales transients too (Core Haptics), so they play weaker than in the clip (Lofelt's SDK plays them as a second pattern)")
    ]
    if lofelt, let start = clip.amplitude.first, start.emphasis != nil {
      notes.append(.init(.lost, time: start.time, "the emphasis on the first breakpoint is dropped, as Lofelt's converter does"))
    }
    return notes
  }
}
