import Foundation
import HapticTestSupport
import Testing

/// `send --seek` over a port plays what lies after the offset, every time (issue 32 point 1,
/// issue 33): five transients 0.5 s apart, seek 1.2 s → the board drives twice (1.5 s and
/// 2.0 s), 0.5 s apart, in each of five runs on one served board. It used to play the whole
/// pattern, or a moment of its start then the rest, in most runs: the seek, given "now" after
/// the start, landed a frame or more after it (or before it, behind a start's link lead).
@Suite struct SendSeekTests {
  static func fiveTransients(in folder: URL) throws -> String {
    let url = folder.appendingPathComponent("five.ahap")
    let events = (0..<5).map { index in
      """
      {"Event":{"Time":\(Double(index) * 0.5),"EventType":"HapticTransient",\
      "EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}
      """
    }
    try Data("{\"Pattern\":[\(events.joined(separator: ","))]}".utf8).write(to: url)
    return url.path
  }

  /// Board seconds where the drive starts after at least 100 ms at 0.
  static func onsets(_ trace: BoardTraceTests.Trace) -> [Double] {
    var onsets: [Double] = []
    var last = -1.0
    for row in trace.rows where row.drive != 0 {
      if row.time - last > 0.1 { onsets.append(row.time) }
      last = row.time
    }
    return onsets
  }

  @Test("send --seek 1.2 over a port: only the transients at 1.5 s and 2 s, in 5 of 5 runs")
  func seekOverAPort() throws {
    let folder = try BoardTraceTests.folder("seek")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tracePath = folder.appendingPathComponent("board.csv").path
    let pattern = try Self.fiveTransients(in: folder)
    let server = try BackgroundCLI(["sim", "serve", "--trace", tracePath, "--trace-rate", "1000"])
    let runs = 5
    for run in 0..<runs {
      let sent = try CLIRunner.run(["send", pattern, "--port", server.firstLine, "--seek", "1.2", "--json"])
      #expect(sent.status == 0, "run \(run): \(sent.stderr)")
      // Apart from the next run's drive by far more than the onset gap.
      usleep(300_000)
    }
    let served = server.terminate()
    #expect(served.status == 0, "\(served.stderr)")
    let onsets = Self.onsets(try BoardTraceTests.Trace(tracePath))
    #expect(onsets.count == 2 * runs, "two onsets per run: \(onsets)")
    for pair in stride(from: 0, to: onsets.count - 1, by: 2) {
      let gap = onsets[pair + 1] - onsets[pair]
      #expect(abs(gap - 0.5) < 0.005, "1.5 s and 2 s, 0.5 s apart: \(onsets[pair]) → \(onsets[pair + 1])")
    }
  }
}
