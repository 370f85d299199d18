import Foundation
import HapticTestSupport
import Testing

@Suite("hapticctl validate", .serialized)
struct ValidateCommandTests {
  let corpus = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
  let fixtures = CLIRunner.packageRoot.appendingPathComponent("Tests/HapticAHAPTests/Fixtures")

  @Test("The whole corpus validates with exit status 0", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func corpusPasses() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
      .filter { $0.hasSuffix(".ahap") }.sorted().map { corpus.appendingPathComponent($0).path }
    #expect(files.count == 40)
    let result = try CLIRunner.run(["validate"] + files)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("40 of 40 files loaded"))
  }

  @Test("A failing file gives exit status 1 and names the file, the entry and the code")
  func failingFile() throws {
    let bad = fixtures.appendingPathComponent("bad/wrong-type.ahap").path
    let good = fixtures.appendingPathComponent("good/audio.ahap").path
    let result = try CLIRunner.run(["validate", good, bad])
    #expect(result.status == 1)
    #expect(result.stdout.contains("\(good): ok"))
    #expect(result.stdout.contains("\(bad): FAILED, 1 error"))
    #expect(result.stdout.contains("\(bad):1:51: error: Pattern[0].Event.Time: expected a number, found a string (\"soon\") [invalidEventTime -4822]"))
    #expect(result.stdout.contains("1 of 2 files loaded, 1 failed"))
  }

  @Test("--json prints one object per file with the documented keys")
  func jsonOutput() throws {
    let lenient = fixtures.appendingPathComponent("good/lenient.ahap").path
    let bad = fixtures.appendingPathComponent("bad/unknown-event-type.ahap").path
    let result = try CLIRunner.run(["validate", "--json", lenient, bad])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["file"] as? String == lenient)
    #expect(first["ok"] as? Bool == true)
    #expect(first["events"] as? Int == 3)
    #expect(first["curves"] as? Int == 1)
    #expect((first["pattern_duration_s"] as? Double) == 45)
    let warnings = try #require(first["warnings"] as? [[String: Any]])
    #expect(warnings.count == 18)
    #expect(warnings.allSatisfy { $0["code"] is String && $0["path"] is String && $0["message"] is String })
    let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["ok"] as? Bool == false)
    #expect(second["events"] is NSNull)
    let errors = try #require(second["errors"] as? [[String: Any]])
    #expect(errors.first?["code"] as? String == "invalidEventType")
    #expect(errors.first?["apple_code"] as? Int == -4821)
    #expect(errors.first?["path"] as? String == "Pattern[1].Event.EventType")
  }

  @Test("Missing files fail cleanly; usage errors keep argument-parser's exit code")
  func usageAndMissing() throws {
    let missing = try CLIRunner.run(["validate", "/nonexistent/pattern.ahap"])
    #expect(missing.status == 1)
    #expect(missing.stdout.contains("/nonexistent/pattern.ahap: error: cannot open the file"))
    let usage = try CLIRunner.run(["validate"])
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("Missing expected argument"))
    let badOption = try CLIRunner.run(["validate", "--max-file-size", "-3", "x.ahap"])
    #expect(badOption.status == 64)
  }

  @Test("Binary garbage and a 100,000-deep file fail without crashing")
  func hostileFiles() throws {
    let deep = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-deep-\(UUID()).ahap")
    try Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8).write(to: deep)
    defer { try? FileManager.default.removeItem(at: deep) }
    let garbage = fixtures.appendingPathComponent("bad/garbage.ahap").path
    let result = try CLIRunner.run(["validate", deep.path, garbage])
    #expect(result.status == 1)
    #expect(result.stdout.contains("nesting deeper than 512 levels"))
    #expect(result.stdout.contains("\(garbage):1:1: error: not valid JSON"))
  }
}
