import Foundation
import HapticTestSupport
import Testing

/// The link in real time (issue 13): the 15 s Lofelt pattern streamed by `send` over `sim serve`
/// on a pseudo-terminal with byte loss, corruption and ±200 ppm drift, at default settings.
/// Fast recovery and the adaptive lookahead keep the drive whole (docs/protocol.md §4.5, §8).
@Suite struct LossyLinkTests {
  static let pattern = TestCorpus.ahapFolder.appendingPathComponent("Lofelt__NiceVibrations__16_points.ahap").path

  /// Plays the pattern over a served board with these line faults; returns `send --json`'s report.
  static func play(drop: String, corrupt: String) throws -> [String: Any] {
    let server = try BackgroundCLI(["sim", "serve", "--drop", drop, "--corrupt", corrupt, "--drift-ppm", "200"])
    defer { _ = server.terminate() }
    let result = try CLIRunner.run(["send", pattern, "--port", server.firstLine, "--json"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test("0.1 % byte loss, 0.01 % corruption: no underrun, no late segment, a short lookahead", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func lowLoss() throws {
    let report = try Self.play(drop: "0.001", corrupt: "0.0001")
    print("0.1 % loss: \(report)")
    #expect(try #require(report["drive_duration_s"] as? Double) > 14.9)
    #expect(try #require(report["retransmits"] as? Int) > 0, "the faults were real")
    #expect(report["underruns"] as? Int == 0 && report["late_segments"] as? Int == 0, "\(report)")
    // Two retransmission timeouts of delivery, three times over: 150 ms (30 ms on a clean line).
    #expect(try #require(report["lookahead_ms"] as? Double) <= 160, "grows only as far as the link needs")
  }

  @Test("1 % byte loss, 0.1 % corruption: no underrun, no late segment (was 236–276, and 150 underruns)", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func highLoss() throws {
    let report = try Self.play(drop: "0.01", corrupt: "0.001")
    print("1 % loss: \(report)")
    #expect(try #require(report["drive_duration_s"] as? Double) > 14.9)
    #expect(try #require(report["recoveries"] as? Int) > 50, "the faults were real")
    let lookahead = try #require(report["lookahead_ms"] as? Double)
    #expect(lookahead > 140 && lookahead <= 400, "the lookahead grew with the loss, within its bound")
    // 0 and 0 in 10 of 10 runs (32-byte batches and two RTOs of delivery on a lossy link; with
    // 64-byte batches and one RTO, 1 run in 3 had a late batch where the pattern grows dense).
    #expect(report["underruns"] as? Int == 0 && report["late_segments"] as? Int == 0, "\(report)")
  }

  @Test("1 % loss with an intensity change every 30–70 ms: no gap in the drive (holds bridge a lost frame of a replace)")
  func liveChangesOverLoss() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lossy-live-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let held = folder.appendingPathComponent("held.ahap")
    try Data(
      #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":8,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#
        .utf8
    ).write(to: held)
    let server = try BackgroundCLI(["sim", "serve", "--drop", "0.01", "--corrupt", "0.001"])
    defer { _ = server.terminate() }
    var generator = SystemRandomNumberGenerator()
    var lines: [(delay: Double, line: String)] = [(0.5, "intensity 0.3")]
    for n in 1..<100 {
      lines.append((Double.random(in: 0.030...0.070, using: &generator), n % 2 == 0 ? "intensity 0.3" : "intensity 1.0"))
    }
    lines.append((0.3, "stop"))
    let result = try CLIRunner.run(["send", held.path, "--port", server.firstLine, "--json", "--live"], input: lines)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    print("1 % loss, live changes: \(report)")
    #expect(try #require(report["recoveries"] as? Int) > 20, "the faults were real")
    #expect(report["stopped_by"] as? String == "stop")
    // Without holds: 33 underruns in 200 changes (a replace's later frame lost: 10 ms at 0).
    // A change may still arrive a recovery late (late_segments > 0): the drive holds meanwhile.
    #expect(report["underruns"] as? Int == 0, "\(report)")
  }
}
