import Foundation
import HapticTransport
import HapticWire
import Testing

/// `hapticctl emulate`: the board's real firmware on its emulator, started by the CLI, with a
/// trace in `sim serve --trace`'s format (issue 14: "and the same for emulated boards").
@Suite(
  "hapticctl emulate", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct EmulateCommandTests {
  /// One row of a `--trace` CSV.
  struct Row {
    let time: Double
    let drive: Double
    let acceleration: Double
  }

  static func rows(_ url: URL) throws -> [Row] {
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.hasPrefix("time_s,channel,drive,accel_g\n"))
    return rows(in: text, channel: 0)
  }

  /// The rows of `channel` in a `time_s,channel,drive,accel_g` text (`emulate --trace`,
  /// `simulate --format csv`).
  static func rows(in text: String, channel: Int) -> [Row] {
    text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: ",")
      guard fields.count == 4, fields[1] == "\(channel)", let t = Double(fields[0]), let drive = Double(fields[2]),
        let acceleration = Double(fields[3])
      else { return nil }
      return Row(time: t, drive: drive, acceleration: acceleration)
    }
  }

  @Test("A silent host's long batch: the trace shows the drive, the watchdog stop and the ring-down")
  func watchdogInTrace() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("emulate")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = directory.appendingPathComponent("trace.csv")
    let emulate = try EmulatorProcess(arguments: [
      CLIRunner.executable.path, "emulate", "--trace", trace.path, "--trace-rate", "2000",
    ])
    defer { emulate.stop() }

    let host = try EmulatorHost(path: emulate.ptyPath)
    defer { host.transport.close() }
    let capabilities = try #require(try host.identify(), "no capabilities through hapticctl emulate")
    let watchdog = Double(capabilities.watchdogMilliseconds) / 1000
    let clock = try #require(try host.clockSample(), "no clock answers")
    // Level 200 for 3 s, 30 ms ahead; then silence: the watchdog must stop it.
    let now = Double(clock.boardTicks) + (emulatorMonotonicSeconds() - clock.hostAtRead) * 2_000_000
    let batch = SegmentBatch(
      channel: 0, startTime: UInt32(truncatingIfNeeded: UInt64(now + 0.030 * 2_000_000)), levelBytes: 2,
      segments: [.init(frames: 3000, startLevel: 200, endLevel: 200, startFrequency: 0, endFrequency: 0)])
    host.answering = false
    try host.send(.queueSegments(batch))
    _ = try host.wait(timeout: 0.4) { _ in false }
    host.transport.close()
    let stopped = emulate.stop()
    #expect(stopped.status == 0, "hapticctl emulate exit \(stopped.status)\n\(stopped.stderr)")

    let rows = try Self.rows(trace)
    let events = try EmulatorTrace.events(contentsOf: EmulatorTrace.eventsURL(for: trace))
    let on = try #require(rows.firstIndex { $0.drive > 0 }, "the trace never drives\n\(stopped.stderr)")
    let off = try #require(rows[on...].firstIndex { $0.drive == 0 }, "the drive never stops")
    let stop = try #require(events.first { $0.name == "watchdog_stop" }, "no watchdog_stop in \(events)")
    let stopTime = Double(stop.microseconds) / 1e6
    // The drive is the firmware's RTP level through the chip: 200/255 of full scale.
    #expect(rows[on..<off].allSatisfy { abs($0.drive - 200.0 / 255) < 1e-6 })
    // It ends with the watchdog stop (the I²C write within a frame of the flag; rows 0.5 ms),
    // and after no more than the watchdog: it started after the board had the batch.
    #expect(abs(rows[off].time - stopTime) <= 0.0015, "drive 0 at \(rows[off].time) s, watchdog_stop at \(stopTime) s")
    #expect(rows[off].time - rows[on].time <= watchdog + 0.001, "drove \(rows[off].time - rows[on].time) s")
    // What the user feels: the LRA rings up while driven and down after (Q 11 at 175 Hz: τ 20 ms).
    let driven = rows[on..<off].map { abs($0.acceleration) }.max() ?? 0
    let later = rows.filter { $0.time > rows[off].time + 0.1 && $0.time < rows[off].time + 0.2 }
    #expect(driven > 0.3, "peak \(driven) G while driven")
    #expect(!later.isEmpty && later.allSatisfy { abs($0.acceleration) < driven * 0.05 }, "still ringing 100 ms after")
    // The rows run to the emulator's end, marked last in the events.
    let end = try #require(events.last, "no events")
    #expect(end.name == "stopped")
    #expect(abs((rows.last?.time ?? 0) - Double(end.microseconds) / 1e6) <= 0.001)
    print(
      "emulate --trace: drive \(rows[on].time)…\(rows[off].time) s, watchdog_stop \(stopTime) s, peak \(driven) G, "
        + "\(rows.count) rows to \(rows.last?.time ?? 0) s")
  }

  @Test("A board without an emulator, and a bad --trace folder: clear errors, exit 1")
  func errors() throws {
    let none = try CLIRunner.run(["emulate", "--board", "sim-lra"])
    #expect(none.status == 1)
    #expect(none.stderr.contains("sim-lra has no emulator"), "\(none.stderr)")
    let folder = try CLIRunner.run(["emulate", "--trace", "/nonexistent-folder/trace.csv"])
    #expect(folder.status == 1)
    #expect(folder.stderr.contains("/nonexistent-folder does not exist"), "\(folder.stderr)")
    #expect(folder.stdout.isEmpty, "nothing started: \(folder.stdout)")
  }
}
