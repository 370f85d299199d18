import Foundation
import HapticAHAP
import HapticCore
import Testing

@Suite("Real-world AHAP corpus", .enabled(if: TestPaths.corpusIsPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
struct CorpusTests {
  static let files = TestPaths.corpusFiles()

  @Test("The corpus folder exists and holds the 40 public files")
  func corpusIsPresent() throws {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: TestPaths.corpus.path, isDirectory: &isDirectory)
    #expect(exists && isDirectory.boolValue, "corpus folder missing at \(TestPaths.corpus.path)")
    #expect(Self.files.count == 40)
  }

  @Test("Every corpus file loads with zero errors", arguments: files)
  func loads(_ file: URL) throws {
    let document = try AHAPReader().read(contentsOf: file.path)
    #expect(!document.pattern.events.isEmpty)
    #expect(document.pattern.duration >= 0)
  }

  @Test("Every corpus file round-trips read → write → read losslessly", arguments: files)
  func roundTrips(_ file: URL) throws {
    let first = try AHAPReader().read(contentsOf: file.path).pattern
    let text = AHAPWriter().string(first)
    let second = try AHAPReader().read(string: text, file: "rewritten").pattern
    #expect(second == first)
    // Writing is deterministic: the rewritten pattern writes to the same text.
    #expect(AHAPWriter().string(second) == text)
  }

  @Test("Known quirks produce the documented warnings")
  func quirkWarnings() throws {
    func warnings(_ name: String) throws -> [AHAPDiagnostic] {
      try AHAPReader().read(contentsOf: TestPaths.corpus.appendingPathComponent(name).path).warnings
    }
    let recoil = try warnings("apple__unityplugins__Effects_Recoil.ahap")
    #expect(recoil.map(\.code) == [.valueClamped])
    #expect(recoil.first?.path == "Pattern[0].Event.EventParameters[1].ParameterValue")

    let invalidFields = try warnings("Lofelt__NiceVibrations__invalid_fields.ahap")
    #expect(invalidFields.contains { $0.code == .unknownKey && $0.path == "Pattern[1].ParameterCurves" })

    let reaHaptic = try warnings("DemuteStudio__ReaHaptic__hap_attack_SP1_tripleStrike.ahap")
    #expect(reaHaptic.contains { $0.code == .valueClamped && $0.message.contains("-0.117") })

    let lofelt = try warnings("Lofelt__NiceVibrations__17_points.ahap")
    #expect(lofelt.contains { $0.code == .curveConvention && $0.message.contains("absolute") })

    // Apple's own files are not mistaken for absolute-time exports.
    for file in Self.files where file.lastPathComponent.hasPrefix("apple__") {
      let found = try AHAPReader().read(contentsOf: file.path).warnings
      #expect(!found.contains { $0.message.contains("absolute control-point times") }, "\(file.lastPathComponent)")
    }
  }

  @Test("Unsorted files are sorted stably by time")
  func unsortedFilesSort() throws {
    let path = TestPaths.corpus.appendingPathComponent("candlefinance__haptics__test.ahap").path
    let events = try AHAPReader().read(contentsOf: path).pattern.events
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
  }

  @Test("Absolute control-point times convert on request")
  func absoluteConvention() throws {
    let path = TestPaths.corpus.appendingPathComponent("Lofelt__NiceVibrations__17_points.ahap").path
    let relative = try AHAPReader().read(contentsOf: path).pattern
    let absolute = try AHAPReader(options: AHAPReadOptions(controlPointTimes: .absolute))
      .read(contentsOf: path).pattern
    #expect(relative.duration == 31)
    #expect(absolute.duration == 16)
    let second = try #require(absolute.curves.first { $0.time == 15 })
    #expect(second.controlPoints.map(\.time) == [0, 1])
  }

  @Test("The 70 s Lofelt clip keeps its full length")
  func longClip() throws {
    let path = TestPaths.corpus.appendingPathComponent("Lofelt__NiceVibrations__long_clip.ahap").path
    let pattern = try AHAPReader().read(contentsOf: path).pattern
    #expect(pattern.duration == 70)
  }
}
