import Foundation
import HapticAHAP
import HapticCore
import Testing

/// Every bad input gives an error naming the file and the entry, never a crash.
@Suite("Bad input")
struct BadInputTests {
  /// Reads a bad fixture and returns the error it must produce.
  private func failure(_ name: String, options: AHAPReadOptions = AHAPReadOptions()) throws -> AHAPError {
    let path = TestPaths.fixture("bad/\(name)")
    do {
      _ = try AHAPReader(options: options).read(contentsOf: path)
    } catch {
      #expect(error.file == path)
      #expect(!error.errors.isEmpty)
      #expect(error.description.hasPrefix(path), "the message names the file")
      return error
    }
    Issue.record("\(name) loaded but must fail")
    throw CancellationError()
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let file: String
    let code: HapticErrorCode
    let path: String
    let messagePart: String
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    Case(file: "empty.ahap", code: .invalidPatternData, path: "", messagePart: "empty"),
    Case(file: "garbage.ahap", code: .invalidPatternData, path: "", messagePart: "not valid JSON"),
    Case(file: "truncated.ahap", code: .invalidPatternData, path: "", messagePart: "truncated"),
    Case(file: "wrong-type.ahap", code: .invalidEventTime, path: "Pattern[0].Event.Time", messagePart: "found a string (\"soon\")"),
    Case(file: "unknown-event-type.ahap", code: .invalidEventType, path: "Pattern[1].Event.EventType", messagePart: "HapticTap"),
    Case(file: "negative-time.ahap", code: .invalidEventTime, path: "Pattern[0].Event.Time", messagePart: "negative time -0.5"),
    Case(file: "negative-duration.ahap", code: .invalidEventDuration, path: "Pattern[0].Event.EventDuration", messagePart: "negative duration"),
    Case(file: "nan.ahap", code: .invalidPatternData, path: "", messagePart: "NaN"),
    Case(file: "infinity.ahap", code: .invalidPatternData, path: "", messagePart: "too large"),
    Case(file: "pattern-not-array.ahap", code: .invalidPatternDictionary, path: "Pattern", messagePart: "must be an array"),
    Case(file: "missing-pattern.ahap", code: .invalidPatternDictionary, path: "Pattern", messagePart: "missing"),
    Case(file: "escaping-waveform.ahap", code: .pathEscapes, path: "Pattern[0].Event.EventWaveformPath", messagePart: "leaves"),
    Case(file: "absolute-waveform.ahap", code: .pathEscapes, path: "Pattern[0].Event.EventWaveformPath", messagePart: "absolute"),
  ]

  @Test("Each bad file fails with the right code, path and message", arguments: cases)
  func badFile(_ expected: Case) throws {
    let error = try failure(expected.file)
    let first = try #require(error.errors.first)
    #expect(first.code == expected.code)
    #expect(first.path == expected.path)
    #expect(first.message.contains(expected.messagePart), "\(first.message)")
    #expect(first.severity == .error)
    if expected.file != "empty.ahap" {
      #expect(first.line != nil && first.column != nil, "errors point at a line and column")
    }
  }

  @Test("A file with several problems reports each of them")
  func severalErrors() throws {
    let error = try failure("bad-parameter.ahap")
    let found = error.errors.map { "\($0.code.name) \($0.path)" }
    #expect(found == [
      "invalidParameterType Pattern[0].Parameter.ParameterID",
      "badParameterEntry Pattern[1].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue",
      "badParameterEntry Pattern[1].ParameterCurve.ParameterCurveControlPoints[1].Time",
      "invalidParameterType Pattern[2].Event.EventParameters[0].ParameterID",
    ])
    #expect(error.code == .invalidParameterType)
    #expect(error.errors[0].message.contains("event parameter"), "hints at the Control spelling")
  }

  @Test("Nesting 100,000 deep is refused without exhausting the stack")
  func deepNesting() throws {
    let deep = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
    #expect {
      try AHAPReader().read(deep, file: "deep.ahap")
    } throws: { error in
      guard let error = error as? AHAPError else { return false }
      return error.errors.first?.message.contains("nesting deeper than 512") == true
        && error.description.hasPrefix("deep.ahap:1:")
    }
  }

  @Test("A file over the size limit is refused before it is read")
  func tooLarge() throws {
    // A sparse 65 MiB file: refusing it must not need reading it.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-huge-\(UUID()).ahap").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 65 << 20)
    try handle.close()
    #expect {
      try AHAPReader().read(contentsOf: path)
    } throws: { error in
      guard let error = error as? AHAPError else { return false }
      return error.code == .fileTooLarge && error.errors[0].message.contains("68157440 bytes")
    }
    // The limit is configurable.
    let small = AHAPReadOptions(maxFileSize: 100)
    #expect(throws: AHAPError.self) {
      try AHAPReader(options: small).read(contentsOf: TestPaths.fixture("good/audio.ahap"))
    }
  }

  @Test("Missing files and directories give clear errors")
  func unreadable() throws {
    do {
      _ = try AHAPReader().read(contentsOf: "/nonexistent/x.ahap")
      Issue.record("must fail")
    } catch {
      #expect(error.code == .fileNotFound)
      #expect(error.description.contains("/nonexistent/x.ahap"))
    }
    do {
      _ = try AHAPReader().read(contentsOf: TestPaths.fixtures.path)
      Issue.record("must fail")
    } catch {
      #expect(error.code == .fileUnreadable)
      #expect(error.description.contains("directory"))
    }
  }

  @Test("A named pipe is refused without blocking")
  func fifo() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-fifo-\(UUID())").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try AHAPReader().read(contentsOf: path)
      Issue.record("must fail")
    } catch {
      #expect(error.code == .fileUnreadable)
      #expect(error.description.contains("not a regular file"))
    }
  }

  @Test("Past the error limit, a closing error counts the rest; the file still fails")
  func errorLimit() throws {
    let entries = (0..<30).map { _ in #"{"Event": {"Time": -1, "EventType": "HapticTransient"}}"# }
    let text = #"{"Pattern": ["# + entries.joined(separator: ",") + "]}"
    for limit in [0, 5] {
      do {
        _ = try AHAPReader(options: AHAPReadOptions(maxErrors: limit)).read(string: text)
        Issue.record("must fail with maxErrors \(limit)")
      } catch {
        let listed = max(1, limit)
        #expect(error.errors.count == listed + 1)
        #expect(error.errors.last?.message == "\(30 - listed) more error(s) not listed")
      }
    }
  }

  @Test("A key repeated as null is reported, and counts as absent")
  func nullDuplicate() throws {
    let text = #"{"Pattern": [{"Event": {"Time": 1, "Time": null, "EventType": "HapticContinuous", "EventDuration": 0}}]}"#
    let document = try AHAPReader().read(string: text)
    let found = document.warnings.map { "\($0.code.name) \($0.path)" }
    #expect(found == [
      "duplicateKey Pattern[0].Event.Time",
      "defaultApplied Pattern[0].Event.Time",
      "defaultApplied Pattern[0].Event.EventDuration",
    ])
    #expect(document.pattern.events.first?.time == 0)
  }

  @Test("Waveform paths: escapes are refused, symlinks are followed and checked")
  func waveformPaths() throws {
    #expect(WaveformPath.lexicalProblem("a/../../b.wav") != nil)
    #expect(WaveformPath.lexicalProblem("a/../b.wav") == nil)
    #expect(WaveformPath.lexicalProblem("./sounds/x.wav") == nil)
    #expect(WaveformPath.lexicalProblem("") != nil)
    #expect(WaveformPath.lexicalProblem(".") != nil)

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-wave-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pattern = folder.appendingPathComponent("p.ahap").path
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: "/etc/hostname")
    #expect(throws: AHAPDiagnostic.self) { try WaveformPath.resolve("link.wav", relativeTo: pattern) }
    #expect(throws: AHAPDiagnostic.self) { try WaveformPath.resolve("missing.wav", relativeTo: pattern) }
  }
}
