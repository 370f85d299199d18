import Foundation
import HapticTransport
import HapticWire
import Testing

/// End to end on the emulated Arduino Uno + DRV2605L board (Boards/uno-drv2605l): the real
/// firmware on simavr, its UART on a pty, and the DRV2605L register writes in a trace.
@Suite(
  "Emulated Uno + DRV2605L board (simavr)", .serialized,
  .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
struct EmulatedBoardTests {
  /// Patterns held long enough to compare drive frame by frame.
  enum HeldPattern: String, CaseIterable, CustomTestStringConvertible {
    /// One continuous event, 0.3 s at intensity 0.8, shaped by an intensity curve.
    case continuousCurve
    /// Three transients, then a continuous event with an attack and a release.
    case transientsAndContinuous

    var testDescription: String { rawValue }

    var ahap: String {
      switch self {
      case .continuousCurve:
        return """
          {
            "Version": 1.0,
            "Pattern": [
              { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.3,
                  "EventParameters": [
                    { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                    { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } },
              { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.0,
                  "ParameterCurveControlPoints": [
                    { "Time": 0.0, "ParameterValue": 0.3 },
                    { "Time": 0.1, "ParameterValue": 1.0 },
                    { "Time": 0.2, "ParameterValue": 0.5 },
                    { "Time": 0.3, "ParameterValue": 0.8 } ] } }
            ]
          }
          """
      case .transientsAndContinuous:
        return """
          {
            "Version": 1.0,
            "Pattern": [
              { "Event": { "Time": 0.0, "EventType": "HapticTransient",
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                                       { "ParameterID": "HapticSharpness", "ParameterValue": 0.7 } ] } },
              { "Event": { "Time": 0.06, "EventType": "HapticTransient",
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.6 },
                                       { "ParameterID": "HapticSharpness", "ParameterValue": 0.3 } ] } },
              { "Event": { "Time": 0.12, "EventType": "HapticTransient",
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                                       { "ParameterID": "HapticSharpness", "ParameterValue": 1.0 } ] } },
              { "Event": { "Time": 0.2, "EventType": "HapticContinuous", "EventDuration": 0.25,
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.6 },
                                       { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 },
                                       { "ParameterID": "AttackTime", "ParameterValue": 0.5 },
                                       { "ParameterID": "ReleaseTime", "ParameterValue": 0.6 } ] } }
            ]
          }
          """
      }
    }
  }

  /// Builds the firmware and the emulator (once per process) or fails the test with make's output
  /// (also for `EmulatedLinkTests`).
  static func requireBuilt() throws {
    if let failure = EmulatorToolchain.buildFailure {
      Issue.record(Comment(rawValue: failure))
      throw EmulatorError("the firmware or the emulator did not build")
    }
  }

  /// The renderer's levels (0…255, one per 1 ms frame) for `file` on uno-drv2605l.
  static func renderedLevels(_ file: URL) throws -> [Int] {
    let result = try CLIRunner.run(["render", file.path, "--board", "uno-drv2605l", "--format", "csv"])
    guard result.status == 0 else { throw EmulatorError("render failed: \(result.stderr)") }
    var levels: [Int] = []
    for line in result.stdout.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",")
      guard fields.count >= 3, let time = Double(fields[0]), let amplitude = Double(fields[2]), fields[1] == "0"
      else { continue }
      let frame = Int((time * 1000).rounded())
      guard frame == levels.count else { throw EmulatorError("render: frame \(frame) out of order ('\(line)')") }
      levels.append(Int((amplitude * 255).rounded()))
    }
    return levels
  }

  private static func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
  }

  /// One `hapticctl send` on a fresh emulator, between two clock markers.
  struct SendRun {
    var sendStatus: Int32 = 0
    var sendOutput = ""
    var report: [String: Any] = [:]
    var emulatorStatus: Int32 = 0
    var emulatorLog = ""
    /// RTP_INPUT writes of the pattern (between the two markers), and all of them.
    var patternWrites: [EmulatorTrace.Write] = []
    var allWrites: [EmulatorTrace.Write] = []
    var levels: [Int] = []
    var comparison: RTPComparison?
    /// Simulated µs minus board ticks/2 at the marker before and the marker after the pattern.
    var offsetBefore = 0.0
    var offsetAfter = 0.0
    /// How far the board clock fell behind the simulation during the run (µs; 0 when it kept
    /// pace; 32 768 per Timer1 overflow interrupt the emulation dropped).
    var clockJump: Double { offsetAfter - offsetBefore }
    var slips: Int { EmulatorProcess.slips(in: emulatorLog) }
  }

  static let markerBefore = 3
  static let markerAfter = 5

  /// Plays `pattern` with `hapticctl send … --port PTY --json` (plus `extra`) on a fresh emulator
  /// with a trace, between two clock markers; compares the RTP writes with the renderer.
  private func sendRun(_ pattern: HeldPattern, extra: [String]) throws -> SendRun {
    try Self.requireBuilt()
    let directory = try CLIRunner.scratchFolder("emulated")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("\(pattern.rawValue).ahap")
    try pattern.ahap.write(to: file, atomically: true, encoding: .utf8)
    let traceFile = directory.appendingPathComponent("trace.csv")
    var run = SendRun()

    let emulator = try EmulatorProcess(trace: traceFile)
    defer { emulator.stop() }
    usleep(50_000)
    let before = try EmulatorHost.marker(path: emulator.ptyPath, level: Self.markerBefore)
    let send = try CLIRunner.run(["send", file.path, "--port", emulator.ptyPath, "--json"] + extra)
    run.sendStatus = send.status
    run.sendOutput = send.stdout + send.stderr
    run.report = Self.jsonObject(send.stdout)
    let after = try EmulatorHost.marker(path: emulator.ptyPath, level: Self.markerAfter)
    (run.emulatorStatus, run.emulatorLog) = emulator.stop()

    run.allWrites = try EmulatorTrace(contentsOf: traceFile).rtp
    let rtp = run.allWrites
    guard let first = rtp.firstIndex(where: { $0.value != 0 }), rtp[first].value == Self.markerBefore,
      let last = rtp.lastIndex(where: { $0.value != 0 }), rtp[last].value == Self.markerAfter, first < last
    else {
      throw EmulatorError("the clock markers are not where expected in the trace:\n\(rtp.prefix(5)) … \(rtp.suffix(5))")
    }
    run.offsetBefore = Double(rtp[first].microseconds) - Double(before) / 2
    run.offsetAfter = Double(rtp[last].microseconds) - Double(after) / 2
    let patternStart = rtp[(first + 1)...].firstIndex { $0.value != Self.markerBefore } ?? last
    run.patternWrites = Array(rtp[patternStart..<last])
    run.levels = try Self.renderedLevels(file)
    run.comparison = RTPComparison.compare(writes: run.patternWrites, levels: run.levels)
    return run
  }

  /// Why a run's comparison may have failed, beside the drive itself: the board clock running
  /// off the simulation (a Timer1 period: an overflow the emulation lost) or the emulator falling
  /// behind real time. Printed with a failure; such a run is a failure like any other.
  private static func emulationNotes(_ run: SendRun) -> String {
    "board clock \(Int(run.clockJump)) µs off the simulation between the markers (sim µs − ticks/2: "
      + "\(Int(run.offsetBefore)) before, \(Int(run.offsetAfter)) after), emulator \(run.slips) slips, send "
      + "retransmits \(run.report["retransmits"] ?? "?")"
  }

  @Test("make builds both boards' firmware and emulators; the firmware's host tests pass")
  func build() throws {
    // The runs every emulated test waits for (EmulatorToolchain.runs), not make again: a second
    // make in the same folders at the same time would race the first.
    for run in EmulatorToolchain.runs {
      #expect(run.status == 0, "\(run.command): exit \(run.status)\n\(run.output.suffix(4000))")
      if run.command.hasSuffix(" test") {
        let summary = run.output.split(separator: "\n").last { $0.contains(" tests, ") } ?? "(no summary line)"
        print("\(run.command): \(summary)")
        #expect(summary.hasSuffix(" 0 failed"), "\(run.command): \(summary)")
      }
    }
    for file in [EmulatorToolchain.firmwareELF, EmulatorToolchain.hbridgeFirmwareELF] {
      #expect(FileManager.default.fileExists(atPath: file.path))
    }
    for program in [EmulatorToolchain.emulatorBinary, EmulatorToolchain.hbridgeEmulatorBinary] {
      #expect(FileManager.default.isExecutableFile(atPath: program.path))
    }
  }

  /// `send --at 0.2`: the start lies far enough ahead that the first batch reaches the board in
  /// time (see `sendStartingNowKeepsItsOnset` for a start "now").
  @Test("send on the emulated board: RTP_INPUT follows the renderer's frames", arguments: HeldPattern.allCases)
  func rtpTraceMatchesRenderer(_ pattern: HeldPattern) throws {
    let run = try sendRun(pattern, extra: ["--at", "0.2"])
    #expect(run.sendStatus == 0, "hapticctl send: exit \(run.sendStatus)\n\(run.sendOutput)")
    #expect(run.emulatorStatus == 0, "emulator exit \(run.emulatorStatus)\n\(run.emulatorLog)")
    let comparison = try #require(
      run.comparison, "no non-zero RTP write between the markers; send: \(run.sendOutput)\n\(run.emulatorLog)")
    let report = run.report
    print(
      "\(pattern.rawValue): \(comparison.summary); send: underruns \(report["underruns"] ?? "?"), "
        + "late_segments \(report["late_segments"] ?? "?"), wire_bytes \(report["wire_bytes"] ?? "?"); "
        + "board clock vs simulation \(Int(run.clockJump)) µs over the run; emulator slips \(run.slips)")
    #expect(
      comparison.failureCount == 0,
      Comment(
        rawValue: "\(pattern.rawValue): \(comparison.failureCount) of \(comparison.framesCompared) frames off ("
          + Self.emulationNotes(run) + "):\n" + comparison.failures.joined(separator: "\n")
          + "\nsend report: \(report)\nemulator: \(run.emulatorLog)"))
    #expect(comparison.worstValueDeviation <= 1)
    #expect(comparison.worstTimingMicroseconds <= 1000)
    #expect(comparison.lateNonZeroWrites == 0, "non-zero RTP writes after the pattern's last frame")
    #expect(run.patternWrites.last?.value == 0, "the pattern ends at RTP \(run.patternWrites.last.map { String($0.value) } ?? "none")")
    #expect(run.allWrites.last?.value == 0, "the trace ends at RTP \(run.allWrites.last.map { String($0.value) } ?? "none")")
  }

  /// The same comparison for a pattern started "now" (plain `send`): the onset must survive.
  @Test("send starting now keeps the pattern's onset")
  func sendStartingNowKeepsItsOnset() throws {
    let run = try sendRun(.transientsAndContinuous, extra: [])
    #expect(run.sendStatus == 0, "hapticctl send: exit \(run.sendStatus)\n\(run.sendOutput)")
    #expect(run.emulatorStatus == 0, "emulator exit \(run.emulatorStatus)\n\(run.emulatorLog)")
    let comparison = try #require(run.comparison, "no non-zero RTP write between the markers")
    // The renderer's onset (the first transient: a run of frames at one level) against the
    // board's first non-zero RTP run.
    let levels = run.levels
    let first = levels.firstIndex { $0 != 0 } ?? 0
    let onsetLevel = levels[first]
    let onsetFrames = levels[first...].prefix { $0 == onsetLevel }.count
    let boardRun = run.patternWrites.drop { $0.value == 0 }.prefix(2)
    let boardRunText =
      boardRun.count == 2
      ? "\(boardRun.first!.value) for "
        + String(format: "%.2f", Double(boardRun.last!.microseconds - boardRun.first!.microseconds) / 1000) + " ms"
      : "none"
    let onsetWrites = run.patternWrites.filter { $0.value == onsetLevel }.count
    print(
      "start now: \(comparison.summary); renderer onset \(onsetFrames) frames at \(onsetLevel), board's first drive "
        + "\(boardRunText) (\(onsetWrites) RTP writes of \(onsetLevel)); send: underruns \(run.report["underruns"] ?? "?"), "
        + "late_segments \(run.report["late_segments"] ?? "?"); board clock vs simulation \(Int(run.clockJump)) µs")
    #expect(run.patternWrites.last?.value == 0)
    // The engine's guard covers the link's transmission (8 ms at 115 200 baud) and clock-query
    // ids start at random (a board resends stale answers to a new session), so the board
    // receives the first batch before its start and plays the whole onset.
    #expect(
      comparison.failureCount == 0,
      Comment(
        rawValue: "\(comparison.failureCount) of \(comparison.framesCompared) frames off (" + Self.emulationNotes(run)
          + "):\n" + comparison.failures.joined(separator: "\n")))
    #expect(onsetWrites >= 1 && boardRun.count == 2, "the onset was played")
  }

  /// What one watchdog run measured.
  struct WatchdogRun {
    var emulatorStatus: Int32 = 0
    var emulatorLog = ""
    var errors: [ProtocolError] = []
    var statusAfter: BoardStatus?
    var on: EmulatorTrace.Write?
    var off: EmulatorTrace.Write?
    var lastWrite: EmulatorTrace.Write?
    /// Simulated µs minus board ticks/2: at the marker before the batch, at the drive's start
    /// (the batch start time), and at the marker after the silence.
    var offsetBefore: Double?
    var startOffset = 0.0
    var offsetAfter: Double?
    /// Stop delay after the board received the batch (ms): the estimate and the range the clock
    /// sample allows; and measured from the batch start minus the lead (ticks/2).
    var stopDelay = 0.0
    var stopDelayRange = 0.0...0.0
    var stopDelayByLead = 0.0
    var drove = 0.0
    var roundTrip = 0.0
    /// The emulator's events file: (simulated µs, event name) rows.
    var events: [(microseconds: Int, name: String)] = []
    var slips: Int { EmulatorProcess.slips(in: emulatorLog) }

    /// The board clock ran a whole Timer1 period off the simulation somewhere in the run.
    var clockJumped: Bool {
      let offsets = [offsetBefore, startOffset, offsetAfter].compactMap { $0 }
      return (offsets.max() ?? 0) - (offsets.min() ?? 0) > 5000
        || (on != nil && off != nil && RTPComparison.isTimer1Multiple((stopDelay - 101) * 1000))
    }

    /// What is wrong with the measurement (empty when it passed).
    var problems: [String] {
      var problems: [String] = []
      guard let on else { return ["RTP never went non-zero\n\(emulatorLog)"] }
      guard off != nil else { return ["RTP never went back to 0 after \(on)"] }
      if on.value != 200 { problems.append("the drive started at RTP \(on.value), not 200") }
      if lastWrite?.value != 0 { problems.append("the trace ends at RTP \(lastWrite.map { String($0.value) } ?? "none")") }
      // Board ticks ≈ 2 × simulated µs since reset: the drive started at the batch's start time.
      // (Against the marker before the batch: the boot offset, or a whole Timer1 period more
      // when the board clock already jumped.)
      let reference = offsetBefore ?? 871
      if abs(startOffset - reference) >= 2000 {
        problems.append("the drive started \(Int(startOffset - reference)) µs off the batch start (ticks/2 + \(Int(reference)) µs)")
      }
      // 100 ms watchdog + 6 frames, for the latest receipt the clock sample allows (the slack
      // covers the frame loop's 1 ms granularity, the I²C write and the emulator's real-time
      // pacing, which can stall a few ms on a busy 2-core machine); the earliest must not be
      // before 100 ms (less 5 ms, or 25 ms when the emulator fell behind real time).
      if stopDelayRange.lowerBound > 106 { problems.append("RTP 0 only \(stopDelayRange) ms after the board received the batch") }
      if stopDelayRange.upperBound < (slips > 0 ? 75 : 95) {
        problems.append("RTP 0 already \(stopDelayRange) ms after the board received the batch")
      }
      if drove >= 200 { problems.append("the drive lasted \(drove) ms") }
      // The events file: one watchdog stop, when RTP went to 0 (the I²C write follows the flag
      // within the frame; the emulator looks every 100 µs); the emulator's end last.
      let stops = events.filter { $0.name == "watchdog_stop" }
      if let off, stops.count != 1 || !(-1000...1500).contains(off.microseconds - stops[0].microseconds) {
        problems.append("events: watchdog stops \(stops) for RTP 0 at \(off.microseconds) µs")
      }
      if events.last?.name != "stopped" { problems.append("events: no `stopped` row last: \(events)") }
      return problems
    }
  }

  /// Identify, a clock marker, one long batch 50 ms ahead, then silence; after 0.5 s the host
  /// speaks again (status, a second marker) and the emulator stops.
  private func watchdogRun() throws -> WatchdogRun {
    try Self.requireBuilt()
    let directory = try CLIRunner.scratchFolder("emulated")
    defer { try? FileManager.default.removeItem(at: directory) }
    let traceFile = directory.appendingPathComponent("trace.csv")
    let eventsFile = directory.appendingPathComponent("events.csv")
    let emulator = try EmulatorProcess(trace: traceFile, events: eventsFile)
    defer { emulator.stop() }
    usleep(50_000)
    var run = WatchdogRun()

    let host = try EmulatorHost(path: emulator.ptyPath)
    defer { host.transport.close() }
    let capabilities = try #require(try host.identify(), "no capabilities from the emulated board")
    #expect(capabilities.boardID == "uno-drv2605l")
    #expect(capabilities.watchdogMilliseconds == 100)
    let ticksPerSecond = Double(capabilities.clockFrequency)
    #expect(ticksPerSecond == 2_000_000)
    let markerBefore = try host.queueMarker(level: Self.markerBefore)
    _ = try host.wait(timeout: 0.12) { _ in false }

    let clock = try #require(try host.clockSample(), "no clock answers")
    run.roundTrip = clock.roundTrip
    #expect(clock.roundTrip < 0.050, "best clock round trip \(clock.roundTrip * 1000) ms")
    /// Board ticks at host time `t` if the board read its clock at host time `read`.
    func boardTicks(atHost t: Double, read: Double = clock.hostAtRead) -> Double {
      Double(clock.boardTicks) + (t - read) * ticksPerSecond
    }
    // One long batch: level 200 for 3000 frames (3 s), 50 ms ahead; then silence.
    let lead = 0.050
    let startTicks = UInt64(boardTicks(atHost: emulatorMonotonicSeconds()) + lead * ticksPerSecond)
    let batch = SegmentBatch(
      channel: 0, startTime: UInt32(truncatingIfNeeded: startTicks), levelBytes: 2,
      segments: [.init(frames: 3000, startLevel: 200, endLevel: 200, startFrequency: 0, endFrequency: 0)])
    host.answering = false
    let sent = try host.send(.queueSegments(batch))
    // The board has the batch once its last byte arrived: when, on its clock (estimate, and the
    // range the clock sample allows).
    let wireTicks = Double(sent.bytes) * EmulatorHost.secondsPerByte * ticksPerSecond
    let receivedTicks = boardTicks(atHost: sent.after) + wireTicks
    let receivedEarliest = boardTicks(atHost: sent.after, read: clock.latestRead) + wireTicks
    let receivedLatest = boardTicks(atHost: sent.after, read: clock.earliestRead) + wireTicks
    _ = try host.wait(timeout: 0.5) { _ in false }  // listen only: nothing goes out

    // The host speaks again: the first status reports the watchdog fired; a second marker.
    host.answering = true
    run.statusAfter = try host.status()
    let markerAfter = try host.queueMarker(level: Self.markerAfter)
    _ = try host.wait(timeout: 0.12) { _ in false }
    run.errors = host.received.compactMap { if case .error(let error) = $0.message { return error } else { return nil } }
    host.transport.close()
    (run.emulatorStatus, run.emulatorLog) = emulator.stop()

    let rtp = try EmulatorTrace(contentsOf: traceFile).rtp
    run.events = try EmulatorTrace.events(contentsOf: eventsFile)
    run.lastWrite = rtp.last
    if let write = rtp.first(where: { $0.value == Self.markerBefore }) {
      run.offsetBefore = Double(write.microseconds) - Double(markerBefore) / 2
    }
    if let write = rtp.last(where: { $0.value == Self.markerAfter }) {
      run.offsetAfter = Double(write.microseconds) - Double(markerAfter) / 2
    }
    guard let on = rtp.first(where: { $0.value == 200 }) else { return run }
    run.on = on
    run.startOffset = Double(on.microseconds) - Double(startTicks) / 2
    guard let off = rtp.first(where: { $0.microseconds > on.microseconds && $0.value == 0 }) else { return run }
    run.off = off
    // The stop on the board clock, anchored on the start write (the same I2C latency for both).
    let offTicks = Double(startTicks) + Double(off.microseconds - on.microseconds) * 2
    func milliseconds(_ ticks: Double) -> Double { ticks / ticksPerSecond * 1000 }
    run.stopDelay = milliseconds(offTicks - receivedTicks)
    run.stopDelayRange = milliseconds(offTicks - receivedLatest)...milliseconds(offTicks - receivedEarliest)
    run.stopDelayByLead = (Double(off.microseconds) - (Double(startTicks) - lead * ticksPerSecond) / 2) / 1000
    run.drove = Double(off.microseconds - on.microseconds) / 1000
    return run
  }

  @Test("watchdog: a silent host's long batch stops ~100 ms after the board received it")
  func watchdogStopsSilentHost() throws {
    let run = try watchdogRun()
    #expect(run.emulatorStatus == 0, "emulator exit \(run.emulatorStatus)\n\(run.emulatorLog)")
    #expect(run.errors.isEmpty, "the board answered with \(run.errors)")
    func f(_ value: Double) -> String { String(format: "%.2f", value) }
    if let on = run.on, let off = run.off {
      print(
        "watchdog: RTP 200 at \(on.microseconds) µs (start ticks/2 \(run.startOffset >= 0 ? "+" : "")\(Int(run.startOffset)) µs), "
          + "RTP 0 at \(off.microseconds) µs: drove \(f(run.drove)) ms of a 3000 ms batch; stop \(f(run.stopDelay)) ms "
          + "(\(f(run.stopDelayRange.lowerBound))…\(f(run.stopDelayRange.upperBound))) after the board received the batch, "
          + "\(f(run.stopDelayByLead)) ms after start − lead in ticks/2; best clock round trip \(f(run.roundTrip * 1000)) ms; "
          + "status after: watchdog \(run.statusAfter.map { "\($0.watchdog)" } ?? "none"); emulator slips \(run.slips)")
    }
    #expect(
      run.problems.isEmpty,
      Comment(
        rawValue: run.problems.joined(separator: "\n")
          + " (the board clock \(run.clockJumped ? "ran a Timer1 period off" : "kept to") the simulation; "
          + "emulator \(run.slips) slips)"))
    #expect(run.statusAfter?.watchdog == .fired, "status after the silence: \(String(describing: run.statusAfter))")
  }

  @Test("--no-chip: the board still answers probe, and status reports the driver not responding")
  func noChip() throws {
    try Self.requireBuilt()
    let emulator = try EmulatorProcess(noChip: true)
    defer { emulator.stop() }
    usleep(100_000)
    let probe = try CLIRunner.run(["probe", "--port", emulator.ptyPath, "--json"])
    let object = Self.jsonObject(probe.stdout)
    print("no chip: probe exit \(probe.status): \(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
    #expect(probe.status == 0, "probe: exit \(probe.status)\n\(probe.stdout)\(probe.stderr)")
    #expect(object["board"] as? String == "uno-drv2605l")

    // Probe does not show faults: ask for a status by hand.
    let host = try EmulatorHost(path: emulator.ptyPath)
    let capabilities = try #require(
      try host.identify(),
      "no capabilities; host link \(host.linkStatistics), received \(host.received.map(\.message)); emulator \(emulator.stop().stderr)")
    #expect(capabilities.boardID == "uno-drv2605l")
    let status = try #require(try host.status(), "no status")
    print("no chip: status faults 0x\(String(status.faults.rawValue, radix: 16)), watchdog \(status.watchdog)")
    #expect(status.faults.contains(.driverNotResponding), "faults \(status.faults)")
    let (exit, log) = emulator.stop()
    #expect(exit == 0, "emulator exit \(exit)\n\(log)")
  }
}
