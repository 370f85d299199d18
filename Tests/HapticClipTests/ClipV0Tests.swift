import Foundation
import HapticAHAP
import HapticClip
import Testing

/// Version 0 `.vij` clips: Lofelt's rules and its upgrade to version 1.
@Suite("A v0 .vij clip")
struct ClipV0Tests {
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: ClipReaderTests.path("datamodel/\(name)"))))
  }

  /// Lofelt's upgrade pairs (v0 file, v1 file, whether Lofelt validates the v0 file first).
  static let pairs = [
    ("valid_v0_conversion.vij", "valid_v1_from_v0.haptic", true),
    ("valid_v0_from_dsp.vij", "valid_v1_from_v0_from_dsp.haptic", true),
    ("valid_v0_transient_time_mismatch.vij", "valid_v1_from_v0_transient_time_mismatch.haptic", true),
    ("invalid_v0_conversions_transients.vij", "valid_v1_from_invalid_v0_conversions_transients.haptic", false),
    ("invalid_v0_conversion.vij", "valid_v1_from_invalid_v0_conversion.haptic", false),
  ]

  @Test("The upgrade gives Lofelt's v1 file, breakpoint for breakpoint", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: pairs)
  func upgradeMatchesLofelt(_ pair: (String, String, Bool)) throws {
    let old = try HapticClipReader().readV0(try Self.bytes(pair.0), file: pair.0, validate: pair.2)
    let expected = try HapticClipReader().read(try Self.bytes(pair.1), file: pair.1).clip
    let upgraded = old.upgraded().clip
    #expect(Self.difference(upgraded, expected) == nil, "\(pair.0): \(Self.difference(upgraded, expected) ?? "")")
    #expect(upgraded.version == expected.version)
    if pair.2 {
      // The reader upgrades a valid v0 file by itself, and says so.
      let document = try HapticClipReader().read(try Self.bytes(pair.0), file: pair.0)
      #expect(Self.difference(document.clip, expected) == nil && document.upgradedFrom == 0)
      #expect(document.warnings.contains { $0.message.contains("upgraded to version 1") })
    }
  }

  /// The first breakpoint where two clips differ, compared as Lofelt's test does: in 32-bit
  /// floats (its model's type; the DSP file's v1 pair is written with 32-bit decimals).
  static func difference(_ a: HapticClip, _ b: HapticClip) -> String? {
    guard a.amplitude.count == b.amplitude.count else { return "\(a.amplitude.count) vs \(b.amplitude.count) amplitude points" }
    guard a.frequency.count == b.frequency.count else { return "\(a.frequency.count) vs \(b.frequency.count) frequency points" }
    func same(_ x: Double, _ y: Double) -> Bool { Float(x) == Float(y) }
    for (index, (x, y)) in zip(a.amplitude, b.amplitude).enumerated() {
      let emphasis = x.emphasis.map { e in y.emphasis.map { same(e.amplitude, $0.amplitude) && same(e.frequency, $0.frequency) } ?? false }
        ?? (y.emphasis == nil)
      if !same(x.time, y.time) || !same(x.amplitude, y.amplitude) || !emphasis { return "amplitude[\(index)]: \(x) vs \(y)" }
    }
    for (index, (x, y)) in zip(a.frequency, b.frequency).enumerated() where !same(x.time, y.time) || !same(x.frequency, y.frequency) {
      return "frequency[\(index)]: \(x) vs \(y)"
    }
    return nil
  }

  @Test("A transient with no amplitude breakpoint at its time is dropped, with a warning", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func unmatchedTransient() throws {
    let document = try HapticClipReader().read(try Self.bytes("valid_v0_transient_time_mismatch.vij"))
    #expect(document.clip.amplitude.filter { $0.emphasis != nil }.count == 1)
    #expect(document.warnings.contains { $0.path == "voices.transients" && $0.message.contains("dropped") })
  }

  /// Lofelt's invalid v0 fixtures, each with the JSON path and words its error must carry.
  static let invalid = [
    ("invalid_v0_car.vij", "voices.transients[1][0].time", "does not match"),
    ("invalid_v0_opz.vij", "voices.envelopes[", "out of range"),
    ("no_envelopes_v0.vij", "voices.envelopes", "empty"),
    ("invalid_v0_conversion.vij", "voices.transients", "two lists"),
    ("invalid_v0_transient_mismatch.vij", "voices.transients[1][", "does not match"),
    ("invalid_v0_conversions_transients.vij", "voices.transients", "differ in length"),
    ("no_voices_v0.vij", "voices", "missing"),
  ]

  @Test("Lofelt's invalid v0 files fail naming the list and point", .enabled(if: SharedCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: invalid)
  func invalidFails(_ fixture: (String, String, String)) throws {
    let bytes = try Self.bytes(fixture.0)
    do {
      _ = try HapticClipReader().read(bytes, file: fixture.0)
      Issue.record("\(fixture.0) loaded")
    } catch {
      let text = error.description
      #expect(text.contains(fixture.0) && text.contains(fixture.1) && text.contains(fixture.2), "\(text)")
    }
  }

  @Test("The v0 rules: one problem per broken rule, with its path")
  func rules() {
    let clip = HapticClipV0(
      duration: 1,
      envelopes: [[.init(time: 0, amplitude: 0.5), .init(time: 0.5, amplitude: 1.5), .init(time: 0.4, amplitude: 0.2), .init(time: 2, amplitude: 0)]],
      transients: [[.init(time: 0.1, amplitude: 1)], [.init(time: 0.2, amplitude: 0.5)]])
    let paths = clip.problems.map(\.path)
    #expect(
      paths == [
        "voices.envelopes[0][1].amplitude", "voices.envelopes[0][2].time", "voices.envelopes[0]", "voices.transients[1][0].time",
      ], "\(clip.problems)")
    #expect(HapticClipV0(duration: 1, envelopes: [[.init(time: 0, amplitude: 0.5)]]).problems.isEmpty)
    // Upgrading an empty envelope gives one silent point at the duration.
    #expect(HapticClipV0(duration: 2, envelopes: [[]]).upgraded().clip.amplitude == [.init(time: 2, amplitude: 0)])
  }

  @Test("A transient weaker than its breakpoint is raised to it on the way to version 1, with a warning")
  func weakTransientRaised() throws {
    let text = """
      {"metadata": {"duration": 1}, "voices": {"envelopes": [[{"time": 0, "amplitude": 0.5}, {"time": 0.5, "amplitude": 0.5}]],
       "transients": [[{"time": 0.5, "amplitude": 0.1}], [{"time": 0.5, "amplitude": 0.7}]]}}
      """
    let document = try HapticClipReader().read(string: text, file: "weak.vij")
    #expect(document.clip.amplitude[1].emphasis == HapticClip.Emphasis(amplitude: 0.5, frequency: 0.7))
    #expect(document.warnings.contains { $0.message.contains("raised to 0.5") }, "\(document.warnings)")
    // What it writes is a valid version 1 file.
    let written = HapticClipWriter().bytes(document.clip)
    #expect(try HapticClipReader().read(written).warnings.isEmpty)
  }

  /// Found by fuzzing: a v0 clip of one breakpoint upgraded without a word, and its written v1
  /// file was then warned of being a moment with no length.
  @Test("An upgraded v0 clip is warned of the shapes a v1 file is; written and read again, it says nothing new")
  func upgradeWarnsAsVersionOne() throws {
    let cases = [
      (#"[[{"time": 0, "amplitude": 0.2}]]"#, "a single breakpoint (at 0.0 s)"),
      (#"[[{"time": 0, "amplitude": 0.2}, {"time": 0, "amplitude": 0.4}]]"#, "every breakpoint is at 0 s"),
    ]
    // The upgrade extends the envelope to the duration, so these last 0 s. (A frequency envelope
    // cannot pass the end of an upgraded clip: v0's rules keep it within the duration.)
    for (envelopes, expected) in cases {
      let text = #"{"metadata": {"duration": 0}, "voices": {"envelopes": "# + envelopes + #", "transients": []}}"#
      let document = try HapticClipReader().read(string: text, file: "shape.vij")
      #expect(document.warnings.contains { $0.message.hasPrefix(expected) }, "\(envelopes): \(document.warnings)")
      let again = try HapticClipReader().read(HapticClipWriter().bytes(document.clip), file: "written.haptic")
      let known = Set(document.warnings.map(\.message))
      #expect(again.clip == document.clip)
      #expect(again.warnings.allSatisfy { known.contains($0.message) }, "\(envelopes): \(again.warnings)")
    }
  }
}
