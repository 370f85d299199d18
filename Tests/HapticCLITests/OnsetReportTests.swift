import Foundation
import HapticTestSupport
import Testing

/// Issue 32, point 2: over a port `max_onset_error_ms` is a measurement or `null`, and the
/// report says what it was measured from. Before, a port always printed half a frame plus the
/// clock-sync uncertainty (~0.6 ms): with nothing played (`--seek 100`), and with late batches.
@Suite("send's onset error over a port: measured, or null with the reason", .serialized)
struct OnsetReportTests {
  private func report(_ arguments: [String]) throws -> [String: Any] {
    let result = try CLIRunner.run(arguments + ["--json", "--no-audio"])
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
  }

  @Test("On a served board: events 0.4 ms off the frame grid measure 0.400 ms; nothing played is null")
  func measuredOverAPort() throws {
    let scratch = try CLIRunner.scratchFile(
      "offgrid.ahap",
      """
      {"Pattern": [{"Event": {"Time": 0.0004, "EventType": "HapticTransient"}},
                   {"Event": {"Time": 0.1004, "EventType": "HapticTransient"}},
                   {"Event": {"Time": 0.3004, "EventType": "HapticTransient"}}]}
      """)
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let server = try BackgroundCLI(["sim", "serve"])
    defer { _ = server.terminate() }
    for run in 0..<3 {
      let sent = try report(["send", scratch.path, "--port", server.firstLine])
      #expect(sent["late_segments"] as? Int == 0, "run \(run): \(sent)")
      let error = try #require(sent["max_onset_error_ms"] as? Double, "run \(run): \(sent)")
      // Each onset lands on the nearest frame, 0.4 ms from its event: exactly, run after run.
      #expect(abs(error - 0.4) < 1e-6, "run \(run): \(error) ms")
      #expect((sent["onset_error_basis"] as? String)?.contains("no late batch") == true, "\(sent)")
    }
    let nothing = try report(["send", scratch.path, "--port", server.firstLine, "--seek", "100"])
    #expect(nothing["max_onset_error_ms"] is NSNull, "\(nothing)")
    #expect((nothing["onset_error_basis"] as? String)?.hasPrefix("not measured") == true, "\(nothing)")
    // In process, the simulated board's own drive log gives the same figure.
    let inProcess = try report(["send", scratch.path, "--sim"])
    #expect(abs((inProcess["max_onset_error_ms"] as? Double ?? -1) - 0.4) < 1e-6, "\(inProcess)")
    #expect((inProcess["onset_error_basis"] as? String)?.contains("simulated board") == true, "\(inProcess)")
  }

  @Test("Late batches (3 % loss, a 5 ms lookahead): no figure is claimed, and the count is the reason")
  func lateBatchesAreNotMeasured() throws {
    let server = try BackgroundCLI(["sim", "serve", "--drop", "0.03", "--seed", "4"])
    defer { _ = server.terminate() }
    let sent = try report([
      "send", "Examples/pair-lra.ahap", "--port", server.firstLine, "--lookahead-ms", "5", "--max-lookahead-ms", "5",
    ])
    #expect(sent["max_onset_error_ms"] is NSNull, "\(sent)")
    let basis = sent["onset_error_basis"] as? String ?? ""
    // The count comes with the board's final status, which 3 % loss can keep from arriving in
    // the second the report waits (once in CI, at 8706bb9, when it waited half a second): then
    // that is the reason given, and no count is claimed.
    if basis == "not measured: the board did not answer the final status" {
      #expect(sent["late_segments"] is NSNull && sent["board_status_answered"] as? Bool == false, "\(sent)")
      return
    }
    #expect(sent["board_status_answered"] as? Bool == true, "\(sent)")
    let late = try #require(sent["late_segments"] as? Int)
    // 3 % of bytes lost with 5 ms of lookahead: resends reach the board after their start
    // (21–26 late batches in runs here).
    #expect(late > 0, "\(sent)")
    #expect(basis.contains("\(late) batches reached the board late"), "\(sent)")
  }
}
