import Foundation
@testable import HapticEngine
import Testing

@testable import HapticCLI

/// `send`'s report claims the board's counts only from a status the board answered at the end of
/// the run: one that did not answer (3 % loss kept it away once in CI) has counters of an
/// earlier status, too few for the run, and printing them as 0 said "no underrun, no late batch"
/// without knowing it.
@Suite("Send report")
struct SendReportTests {
  static func sendReport(answered: Bool) -> SendReport {
    var engine = HapticEngine.Report()
    engine.underruns = 1
    engine.boardUnderruns = 2
    engine.lateSegments = 3
    engine.boardStatusAnswered = answered
    return SendReport(
      board: "sim-lra", source: "tap.ahap", engine: engine, patternDuration: 0.1, driveDuration: 0.12, wall: 0.4,
      onsets: OnsetMeasurement(error: nil, basis: "not measured: the board did not answer the final status"), stoppedBy: "end")
  }

  static func object(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("With the final status answered, the counts are the host's and the board's together")
  func answeredCounts() throws {
    let report = Self.sendReport(answered: true)
    let json = try Self.object(report.json)
    #expect(json["underruns"] as? Int == 3 && json["late_segments"] as? Int == 3, "\(json)")
    #expect(json["board_status_answered"] as? Bool == true, "\(json)")
    #expect(report.line.contains("3 underruns, 3 late segments"), "\(report.line)")
  }

  @Test("Without it, underruns and late segments are null and the line says why")
  func unansweredCounts() throws {
    let report = Self.sendReport(answered: false)
    let json = try Self.object(report.json)
    #expect(json["underruns"] is NSNull && json["late_segments"] is NSNull, "\(json)")
    #expect(json["board_status_answered"] as? Bool == false, "\(json)")
    #expect(
      report.line.contains("underruns and late segments unknown (the board did not answer its final status; the host's underruns: 1)"),
      "\(report.line)")
  }
}
