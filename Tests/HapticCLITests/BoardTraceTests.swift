import Foundation
import HapticTestSupport
import Testing

/// What a served board did when its host died or it reset, read from `sim serve --trace`
/// (issue 14): the watchdog stops the drive within its timeout plus a frame after a `kill -9`
/// of `send`, and a reset mid-pattern is reported by `send` (`stopped_by: reset`, exit 1) with
/// the next `send` playing.
@Suite struct BoardTraceTests {
  /// A trace: drive rows and events, in board seconds.
  struct Trace {
    var rows: [(time: Double, drive: Double)] = []
    var events: [(time: Double, name: String, detail: String)] = []

    init(_ path: String) throws {
      let steps = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
      rows = steps.compactMap { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 4, let time = Double(fields[0]), let drive = Double(fields[2]) else { return nil }
        return (time, drive)
      }
      let eventsPath = String(path.dropLast(4)) + ".events.csv"
      events = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").dropFirst().compactMap {
        let fields = $0.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 4, let time = Double(fields[0]) else { return nil }
        return (time, String(fields[1]), fields[3...].joined(separator: ","))
      }
    }

    func first(_ name: String) -> Double? { events.first { $0.name == name }?.time }

    /// The time from which the drive stays 0 to the end of the trace.
    var silentFrom: Double? {
      guard let last = rows.lastIndex(where: { $0.drive != 0 }) else { return rows.first?.time }
      return last + 1 < rows.count ? rows[last + 1].time : nil
    }
  }

  static func folder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "trace-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func heldPattern(in folder: URL, seconds: Double) throws -> String {
    let url = folder.appendingPathComponent("held.ahap")
    try Data(
      """
      {"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":\(seconds),\
      "EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}
      """.utf8
    ).write(to: url)
    return url.path
  }

  @Test("kill -9 of send mid-pattern: the drive is 0 within the 100 ms watchdog plus a frame")
  func hostKilled() throws {
    let folder = try Self.folder("kill")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tracePath = folder.appendingPathComponent("board.csv").path
    let server = try BackgroundCLI(["sim", "serve", "--trace", tracePath, "--trace-rate", "1000"])
    let held = try Self.heldPattern(in: folder, seconds: 10)
    let sender = try BackgroundCLI(["send", held, "--port", server.firstLine, "--lookahead-ms", "400"], waitsForLine: false)
    usleep(1_500_000)
    kill(sender.process.processIdentifier, SIGKILL)
    sender.process.waitUntilExit()
    usleep(600_000)
    let served = server.terminate()
    #expect(served.status == 0, "\(served.stderr)")
    let trace = try Trace(tracePath)
    let gone = try #require(trace.first("host_gone"), "the board saw the host go: \(trace.events)")
    let stopped = try #require(trace.first("watchdog_stop"), "the watchdog fired: \(trace.events)")
    // 400 ms of drive was queued when the host died: only the watchdog stops it.
    let driving = trace.rows.filter { $0.time > gone - 0.05 && $0.time < gone && $0.drive != 0 }
    #expect(!driving.isEmpty, "the actuator was driven when the host died")
    let silent = try #require(trace.silentFrom)
    print("host gone \(gone) s, watchdog stop \(stopped) s, drive 0 from \(silent) s")
    #expect(stopped >= gone - 0.001 && stopped - gone <= 0.101, "the watchdog fires within 100 ms of the last frame")
    #expect(silent - gone <= 0.100 + 0.001 + 0.001, "drive 0 within the watchdog plus a frame (1 ms rows)")
  }

  @Test("A reset mid-pattern: send reports it (stopped_by reset, exit 1) and the next send plays")
  func resetMidPattern() throws {
    let folder = try Self.folder("reset")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tracePath = folder.appendingPathComponent("board.csv").path
    let server = try BackgroundCLI(["sim", "serve", "--reset-at", "1.0", "--trace", tracePath])
    defer { _ = server.terminate() }
    let held = try Self.heldPattern(in: folder, seconds: 5)
    let first = try CLIRunner.run(["send", held, "--port", server.firstLine, "--json"])
    #expect(first.status == 1)
    #expect(first.stderr.contains("sim-lra reset while playing"), "\(first.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
    #expect(report["stopped_by"] as? String == "reset", "\(report)")
    #expect(try #require(report["frames"] as? Int) > 500, "the counters of the run before the reset")
    let playedFor = try #require(report["drive_duration_s"] as? Double)
    #expect(playedFor > 0.5 && playedFor < 1.0, "the run ended at the reset, not at the pattern's end")
    let second = try CLIRunner.run(["send", held, "--port", server.firstLine, "--json", "--rate", "4"])
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    let next = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    #expect(next["stopped_by"] as? String == "end" && next["underruns"] as? Int == 0, "\(next)")
    let served = server.terminate()
    #expect(served.status == 0, "\(served.stderr)")
    let trace = try Trace(tracePath)
    let reset = try #require(trace.first("reset"))
    #expect(abs(reset - 1.0) < 0.01)
    #expect(trace.events.contains { $0.name == "reset" && $0.detail.contains("brownOut") })
    // The reset dropped the queue: no drive until the next send, which drove again.
    let afterReset = trace.rows.filter { $0.time > reset + 0.002 }
    let resumed = try #require(afterReset.first { $0.drive != 0 }, "the next send drove the board")
    #expect(afterReset.prefix { $0.drive == 0 }.count > 10, "silent between the reset and the next send")
    #expect(resumed.time > reset + 0.01)
  }
}
