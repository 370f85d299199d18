import Foundation
import HapticTestSupport
import Testing

/// `hapticctl convert` and `.haptic` files in the other commands (issue 17).
@Suite("hapticctl convert and .haptic files")
struct ConvertCommandTests {
  static let ios = CLIRunner.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/haptic/lofelt-nicevibrations/datamodel/ios")

  /// Lofelt's converter pairs (input under datamodel/ios, AHAP name); the v0 `.vij` ones go
  /// through the upgrade first, as in Lofelt's tests.
  static let pairs = [
    ("2_points.haptic", "2_points"), ("3_points.haptic", "3_points"), ("16_points.haptic", "16_points"),
    ("17_points.haptic", "17_points"), ("long_clip.haptic", "long_clip"),
    ("valid_v1_multiple_emphasis.haptic", "valid_v1_multiple_transients"),
    ("../valid_v0.vij", "ahap_from_valid_v0"), ("../valid_v0_from_dsp.vij", "ahap_from_valid_v0_from_dsp"),
  ]

  /// Where two JSON values differ (nil when equal: same keys and order, numbers within 1e-7).
  static func difference(_ a: Any, _ b: Any, at path: String = "") -> String? {
    switch (a, b) {
    case (let x as [String: Any], let y as [String: Any]):
      guard Set(x.keys) == Set(y.keys) else { return "\(path): keys \(x.keys.sorted()) vs \(y.keys.sorted())" }
      for key in x.keys.sorted() {
        if let found = difference(x[key]!, y[key]!, at: "\(path).\(key)") { return found }
      }
      return nil
    case (let x as [Any], let y as [Any]):
      guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) entries" }
      for index in x.indices {
        if let found = difference(x[index], y[index], at: "\(path)[\(index)]") { return found }
      }
      return nil
    case (let x as String, let y as String): return x == y ? nil : "\(path): \"\(x)\" vs \"\(y)\""
    case (let x as NSNumber, let y as NSNumber):
      return abs(x.doubleValue - y.doubleValue) <= 1e-7 ? nil : "\(path): \(x) vs \(y)"
    default: return "\(path): \(a) vs \(b)"
    }
  }

  @Test("--style lofelt reproduces Lofelt's converter on every pair (structure, numbers within 1e-7)", .enabled(if: TestCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"), arguments: pairs)
  func lofeltStyle(_ pair: (String, String)) throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.ahap")
    let input = Self.ios.appendingPathComponent(pair.0).path
    let result = try CLIRunner.run(["convert", input, "-o", output.path, "--style", "lofelt"])
    #expect(result.status == 0, "\(result.stderr)")
    let ours = try JSONSerialization.jsonObject(with: Data(contentsOf: output))
    let theirs = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.ios.appendingPathComponent("\(pair.1).ahap")))
    #expect(Self.difference(ours, theirs) == nil, "\(pair.0): \(Self.difference(ours, theirs) ?? "")")
  }

  @Test("--style plain: one curve per parameter; the AHAP renders as the clip does under the clip's amplitude law", .enabled(if: TestCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func plainStyle() throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = Self.ios.appendingPathComponent("17_points.haptic").path
    let output = folder.appendingPathComponent("plain.ahap").path
    let result = try CLIRunner.run(["convert", input, "-o", output, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"curves\":2") && result.stdout.contains("\"style\":\"plain\""), "\(result.stdout)")
    // The clip plays by its amplitude law; the AHAP file cannot say so (docs/semantics.md §17).
    let clip = try CLIRunner.run(["render", input, "--board", "sim-lra", "--format", "csv"])
    let ahap = try CLIRunner.run(["render", output, "--board", "sim-lra", "--format", "csv", "--intensity-mapping", "square"])
    #expect(clip.status == 0 && ahap.status == 0, "\(clip.stderr)\(ahap.stderr)")
    #expect(clip.stdout == ahap.stdout && clip.stdout.split(separator: "\n").count > 1000)
  }

  @Test("convert refuses to write over its input (was: rewritten in place, exit 0), also through a link")
  func refusesItsInput() throws {
    let folder = try CLIRunner.scratchFolder("convert-self")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("tap.ahap")
    try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap"), to: file)
    let before = try Data(contentsOf: file)
    let link = folder.appendingPathComponent("link.ahap")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    for output in [file.path, folder.path + "/./tap.ahap", link.path] {
      let result = try CLIRunner.run(["convert", file.path, "-o", output])
      #expect(result.status == 1 && result.stderr.contains("is the input file"), "-o \(output): \(result.status) \(result.stderr)")
      #expect(try Data(contentsOf: file) == before, "-o \(output) changed the input")
    }
    // Another file beside it is fine.
    let other = try CLIRunner.run(["convert", file.path, "-o", folder.appendingPathComponent("tap.haptic").path])
    #expect(other.status == 0, "\(other.stderr)")
  }

  @Test("Bad input: an invalid clip fails naming the breakpoint and writes nothing; a silent Android effect and misused options are refused", .enabled(if: TestCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func badInput() throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let invalid = Self.ios.deletingLastPathComponent().appendingPathComponent("validation_v1_sequence.haptic").path
    let output = folder.appendingPathComponent("never.ahap").path
    let result = try CLIRunner.run(["convert", invalid, "-o", output])
    #expect(result.status == 1)
    #expect(result.stderr.contains("signals.continuous.envelopes.amplitude[2].time"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output), "half-written output")
    let unnamed = try CLIRunner.run(["convert", Self.ios.appendingPathComponent("3_points.haptic").path, "-o", folder.appendingPathComponent("x.bin").path])
    #expect(unnamed.status == 1 && unnamed.stderr.contains("--to ahap|haptic|android-waveform|android-envelope"), "\(unnamed.stderr)")
    let lofeltClip = try CLIRunner.run(
      ["convert", Self.ios.appendingPathComponent("3_points.ahap").path, "-o", folder.appendingPathComponent("x.haptic").path, "--style", "lofelt"])
    #expect(lofeltClip.status != 0 && lofeltClip.stderr.contains("--style lofelt applies to AHAP output only"), "\(lofeltClip.stderr)")
    // An Android effect cannot be empty: a silent pattern is refused, nothing written.
    let silent = folder.appendingPathComponent("silent.ahap")
    try Data(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0}]}}]}"#.utf8).write(to: silent)
    let android = folder.appendingPathComponent("never.json").path
    let refused = try CLIRunner.run(["convert", silent.path, "-o", android, "--to", "android-waveform"])
    #expect(refused.status == 1 && refused.stderr.contains("is silent") && !FileManager.default.fileExists(atPath: android), "\(refused.stderr)")
    // validate takes .haptic files too, with the same diagnostics.
    let validate = try CLIRunner.run(["validate", invalid])
    #expect(validate.status == 1 && validate.stdout.contains("amplitude[2].time") && validate.stdout.contains("error"), "\(validate.stdout)")
  }

  @Test("simulate and send --sim play every .haptic file of the shared corpus that loads; the rest fail clearly", .enabled(if: TestCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func corpusPlays() throws {
    let root = Self.ios.deletingLastPathComponent().deletingLastPathComponent()
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".haptic") || $0.hasSuffix(".vij") }.sorted() ?? []
    #expect(files.count >= 30, "corpus: \(files.count) files")
    var played = 0
    for name in files {
      let path = root.appendingPathComponent(name).path
      let validate = try CLIRunner.run(["validate", path])
      let simulate = try CLIRunner.run(["simulate", path, "--board", "sim-lra"])
      guard validate.status == 0 else {
        // Lofelt's invalid and validation fixtures: refused by name, never a crash.
        #expect(simulate.status == 1 && simulate.stderr.contains("cannot load \(path)"), "\(name): \(simulate.stderr)")
        continue
      }
      #expect(simulate.status == 0, "simulate \(name): \(simulate.stderr)")
      // Real time at 20× (the longest clip is 70 s).
      let send = try CLIRunner.run(["send", path, "--sim", "--rate", "20", "--json"])
      #expect(send.status == 0 && send.stdout.contains("\"underruns\":0"), "send \(name): \(send.stdout)\(send.stderr)")
      played += 1
    }
    #expect(played >= 25, "played \(played) of \(files.count)")
  }

  static let corpus = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")

  @Test(
    "AHAP → .haptic: the clip plays; losses are warnings naming the moment, and in the JSON summary",
    .enabled(
      if: TestCorpus.isPresent && TestCorpus.hapticIsPresent,
      "needs the shared corpus ../shared/corpus/ahap and ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func ahapToClip() throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let lossless = Self.corpus.appendingPathComponent("apple__unityplugins__Effects_Recharge.ahap").path
    let clip = folder.appendingPathComponent("recharge.haptic").path
    let result = try CLIRunner.run(["convert", lossless, "-o", clip, "--json"])
    #expect(result.status == 0 && result.stdout.contains("\"lossless\":true") && result.stdout.contains("\"to\":\"haptic\""), "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("rendered at 0.0001 s: HapticIntensityControl"), "\(result.stderr)")
    let validate = try CLIRunner.run(["validate", clip])
    #expect(validate.status == 0, "\(validate.stdout)")
    // The clip asks what the AHAP asks under the clip's amplitude law (docs/semantics.md §17).
    let original = try CLIRunner.run(["render", lossless, "--board", "sim-lra", "--format", "csv", "--intensity-mapping", "square"])
    let played = try CLIRunner.run(["render", clip, "--board", "sim-lra", "--format", "csv"])
    #expect(original.status == 0 && played.status == 0, "\(original.stderr)\(played.stderr)")
    func peak(_ csv: String) -> Double {
      csv.split(separator: "\n").dropFirst().compactMap { line in line.split(separator: ",").dropFirst(2).first.flatMap { Double($0) } }
        .map(abs).max() ?? 0
    }
    let (a, b) = (peak(original.stdout), peak(played.stdout))
    #expect(a > 0.5 && abs(a - b) <= 2.0 / 127, "peak drive \(a) vs \(b) of full scale")
    // A lossy file: its audio is reported where it starts.
    let lossy = Self.corpus.appendingPathComponent("apple__unityplugins__Ricochet_Spawn.ahap").path
    let spawn = try CLIRunner.run(["convert", lossy, "-o", folder.appendingPathComponent("spawn.haptic").path, "--json"])
    #expect(spawn.status == 0 && spawn.stdout.contains("\"lossless\":false"), "\(spawn.stdout)")
    #expect(spawn.stderr.contains("warning: lost at 0 s: 1 audio event"), "\(spawn.stderr)")
    // A v0 clip is upgraded on the way.
    let v0 = Self.ios.deletingLastPathComponent().appendingPathComponent("valid_v0.vij").path
    let upgraded = try CLIRunner.run(["convert", v0, "-o", folder.appendingPathComponent("v1.haptic").path])
    #expect(upgraded.status == 0 && upgraded.stderr.contains("upgraded to version 1"), "\(upgraded.stderr)")
  }

  @Test("Android: waveform and envelope JSON for Kotlin, with their losses", .enabled(if: TestCorpus.hapticIsPresent, "needs the shared corpus ../shared/corpus/haptic/lofelt-nicevibrations beside the checkout (a plain clone has none)"))
  func android() throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = Self.ios.appendingPathComponent("valid_v1_multiple_emphasis.haptic").path
    for form in ["android-waveform", "android-envelope"] {
      let output = folder.appendingPathComponent("\(form).json")
      let result = try CLIRunner.run(["convert", input, "-o", output.path, "--to", form, "--json"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("transients: Android effects have none"), "\(result.stderr)")
      let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
      #expect(written["format"] as? String == form)
      #expect((written["kotlin"] as? String)?.hasPrefix("VibrationEffect.") == true)
      #expect(form == "android-waveform" ? (written["timings"] as? [Int])?.isEmpty == false : (written["control_points"] as? [Any])?.isEmpty == false)
    }
  }

  @Test("--input-format, or the content when the extension says nothing")
  func inputFormat() throws {
    let folder = try CLIRunner.scratchFolder("convert")
    defer { try? FileManager.default.removeItem(at: folder) }
    let disguised = folder.appendingPathComponent("clip.json")
    // A clip of the repository's own (a plain clone has no shared corpus).
    try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Examples/knock-and-buzz.haptic"), to: disguised)
    let byContent = try CLIRunner.run(["simulate", disguised.path, "--board", "sim-lra"])
    #expect(byContent.status == 0, "\(byContent.stderr)")
    let forced = try CLIRunner.run(["validate", disguised.path, "--input-format", "ahap"])
    #expect(forced.status == 1 && forced.stdout.contains("error"), "\(forced.stdout)")
    let asClip = try CLIRunner.run(["validate", disguised.path, "--input-format", "haptic"])
    #expect(asClip.status == 0, "\(asClip.stdout)")
  }
}
