import Foundation
import HapticAHAP
import HapticClip
import Testing

/// The `.haptic` reader against Lofelt's own test files (../shared/corpus/haptic, MIT).
@Suite("The .haptic reader")
struct ClipReaderTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/haptic/lofelt-nicevibrations")

  static func path(_ name: String) -> String { corpus.appendingPathComponent(name).path }

  /// Every file Lofelt's tests treat as a valid v1 clip.
  static let valid = [
    "datamodel/ios/2_points.haptic", "datamodel/ios/3_points.haptic", "datamodel/ios/16_points.haptic",
    "datamodel/ios/17_points.haptic", "datamodel/ios/long_clip.haptic", "datamodel/ios/valid_v1_multiple_emphasis.haptic",
    "datamodel/valid_required_v1.haptic", "datamodel/validation_v1_optionals.haptic", "datamodel/v1_additional_fields.haptic",
    "datamodel/valid_v1_from_v0.haptic", "datamodel/valid_v1_from_v0_from_dsp.haptic", "datamodel/valid_beta_impulses.haptic",
  ]

  @Test("Lofelt's valid v1 files load", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: valid)
  func validFilesLoad(_ name: String) throws {
    let document = try HapticClipReader().read(contentsOf: Self.path(name))
    #expect(!document.clip.amplitude.isEmpty)
    #expect(document.clip.version.major == 1)
    // Fields of a newer minor version, a beta signal and a frequency envelope 0.5 ms past the
    // amplitude one are warnings, by path; the rest load clean.
    let expected: [String: [String]] = [
      "datamodel/v1_additional_fields.haptic": [
        "additional_object", "signals.additional_signal", "signals.continuous.envelopes.amplitude[2].emphasis.additional_object",
        "signals.continuous.envelopes.frequency[0].additional_field",
      ],
      "datamodel/valid_beta_impulses.haptic": ["signals.impulses"],
      "datamodel/ios/2_points.haptic": ["signals.continuous.envelopes.frequency[1].time"],
    ]
    #expect(document.warnings.map(\.path) == expected[name] ?? [], "\(document.warnings)")
    #expect(document.warnings.allSatisfy { $0.severity == .warning && $0.line != nil })
  }

  /// Lofelt's invalid and validation files: each fails with the error naming the breakpoint.
  static let invalid: [(file: String, path: String, message: String)] = [
    ("datamodel/invalid_fields_v1.haptic", "signals", "missing"),
    ("datamodel/invalid_version_v1.haptic", "version.major", "version 2 is not supported"),
    ("datamodel/validation_v1_amplitude.haptic", "signals.continuous.envelopes.amplitude[3].amplitude", "1.5 is out of range (0…1)"),
    ("datamodel/validation_v1_sequence.haptic", "signals.continuous.envelopes.amplitude[2].time", "goes back in time"),
    ("datamodel/validation_v1_emphasis_amplitude.haptic", "signals.continuous.envelopes.amplitude[2].emphasis.amplitude", "below the breakpoint's amplitude"),
    ("datamodel/validation_v1_emphasis_amplitude_range.haptic", "signals.continuous.envelopes.amplitude[2].emphasis.amplitude", "out of range"),
    ("datamodel/validation_v1_emphasis_frequency_range.haptic", "signals.continuous.envelopes.amplitude[2].emphasis.frequency", "1.1 is out of range"),
  ]

  @Test("Lofelt's invalid files fail naming the entry, with line and column", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: 0..<invalid.count)
  func invalidFilesFail(_ index: Int) {
    let (name, path, message) = Self.invalid[index]
    do {
      _ = try HapticClipReader().read(contentsOf: Self.path(name))
      Issue.record("\(name) loaded")
    } catch {
      #expect(error.file == Self.path(name))
      let match = error.errors.first { $0.path == path }
      #expect(match?.message.contains(message) == true, "\(name): \(error.errors)")
      #expect(match?.line != nil && match?.column != nil)
    }
  }

  @Test("Bad input: not JSON, truncated, empty envelope, frequency past the end, wrong types")
  func badInput() {
    let cases: [(String, String)] = [
      ("{\"version\": {\"major\": 1", "not valid JSON"),
      ("[1, 2]", "expected an object"),
      (#"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[]}}}}"#, "empty"),
      (#"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5},{"time":1,"amplitude":0.2}],"frequency":[{"time":0,"frequency":0.1},{"time":2,"frequency":2}]}}}}"#, "2 is out of range (0…1)"),
      (#"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":"0","amplitude":0.5}]}}}}"#, "expected a number, found \"0\""),
      (#"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":-1,"amplitude":0.5}]}}}}"#, "-1 is out of range (0…86400 s, 24 h)"),
      // Found by fuzzing: a 115-day clip (177 MB of Lofelt-style AHAP).
      (#"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":9995465,"amplitude":1}]}}}}"#, "9995465 is out of range"),
      (#"{"version":{"major":0},"signals":{}}"#, "v0 .vij"),
      (#"{"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5}]}}}}"#, "version: missing"),
    ]
    for (text, message) in cases {
      do {
        _ = try HapticClipReader().read(string: text, file: "clip.haptic")
        Issue.record("loaded: \(text)")
      } catch {
        #expect(error.description.contains(message), "\(text)\n→ \(error)")
        #expect(error.description.contains("clip.haptic"))
      }
    }
  }

  /// What Meta's validator refuses loads with a warning (issue 32 point 6): `--strict` makes
  /// these errors.
  @Test("A single amplitude breakpoint and a clip of 0 s load, with a warning each")
  func metaRulesWarn() throws {
    let single = try HapticClipReader().read(
      string: #"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5}]}}}}"#)
    #expect(single.warnings.contains { $0.message.contains("a single breakpoint") }, "\(single.warnings)")
    let instant = try HapticClipReader().read(
      string: #"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5},{"time":0,"amplitude":0.2}]}}}}"#)
    #expect(instant.warnings.contains { $0.message.contains("the clip lasts 0 s") }, "\(instant.warnings)")
    let fine = try HapticClipReader().read(
      string: #"{"version":{"major":1},"signals":{"continuous":{"envelopes":{"amplitude":[{"time":0,"amplitude":0.5},{"time":1,"amplitude":0.2}]}}}}"#)
    #expect(fine.warnings.isEmpty, "\(fine.warnings)")
  }
}
