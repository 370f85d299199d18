import Foundation
import HapticTransport
import Testing

/// Flash and drive (issue 15): a blank emulated Uno — Optiboot only, resetting on every open of
/// its port like the real board — flashed with `hapticctl flash` (avrdude through the
/// bootloader, write and verify), then probed and played, the RTP trace against the renderer.
@Suite(
  "Flash and drive: blank emulated Uno", .serialized,
  .enabled(
    if: EmulatorToolchain.missing.isEmpty && EmulatorToolchain.flashMissing.isEmpty,
    Comment(rawValue: "needs the emulated board's toolchain, avrdude and arduino-core-avr: "
      + (EmulatorToolchain.missing + EmulatorToolchain.flashMissing).joined(separator: "; "))))
struct FlashEndToEndTests {
  /// The emulated Uno with Optiboot and auto-reset (blank: the application flash erased).
  static func board(blank: Bool, trace: URL? = nil) throws -> EmulatorProcess {
    var arguments = [
      EmulatorToolchain.emulatorBinary.path, "--firmware", EmulatorToolchain.firmwareELF.path,
      "--bootloader", EmulatorToolchain.bootloader.path, "--auto-reset",
    ]
    if blank { arguments.append("--blank") }
    if let trace { arguments += ["--trace", trace.path] }
    return try EmulatorProcess(arguments: arguments)
  }

  static func seconds(_ body: () throws -> CLIRunner.Result) rethrows -> (CLIRunner.Result, Double) {
    let start = emulatorMonotonicSeconds()
    let result = try body()
    return (result, emulatorMonotonicSeconds() - start)
  }

  @Test("Blank board → flash through Optiboot → probe → send: the RTP trace follows the renderer")
  func flashAndDrive() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("flash")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = directory.appendingPathComponent("registers.csv")
    let pattern = directory.appendingPathComponent("held.ahap")
    try EmulatedBoardTests.HeldPattern.continuousCurve.ahap.write(to: pattern, atomically: true, encoding: .utf8)
    let emulator = try Self.board(blank: true, trace: trace)
    defer { emulator.stop() }

    // Blank: the bootloader alone runs nothing, so nothing answers.
    let before = try CLIRunner.run(["probe", "--port", emulator.ptyPath, "--json"])
    #expect(before.status == 1 && before.stdout.contains("\"supports_haptics\":false"), "\(before.stdout)")

    let (flash, flashSeconds) = try Self.seconds {
      try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", emulator.ptyPath])
    }
    #expect(flash.status == 0, "flash: exit \(flash.status)\n\(flash.stdout)\n\(flash.stderr)\n\(emulator.stderrText)")
    #expect(flash.stderr.contains("bytes of flash verified"), "avrdude verified nothing:\n\(flash.stderr)")
    #expect(flash.stdout.contains("uno-drv2605l") && flash.stdout.contains("haptics: supported"), "\(flash.stdout)")

    // Every open resets the board: probe's answer comes once the bootloader gave way.
    let probe = try CLIRunner.run(["probe", "--port", emulator.ptyPath, "--json"])
    let answer = (try? JSONSerialization.jsonObject(with: Data(probe.stdout.utf8))) as? [String: Any] ?? [:]
    #expect(probe.status == 0, "probe after flashing: \(probe.stdout)\(probe.stderr)")
    let answerMs = answer["answer_ms"] as? Double ?? .infinity
    // 65 ms reset time-out + Optiboot's 3 LED flashes (375 ms) + its 16 ms watchdog abort.
    #expect(answerMs < 700, "open → capabilities \(answerMs) ms")

    let send = try CLIRunner.run(["send", pattern.path, "--port", emulator.ptyPath, "--json"])
    #expect(send.status == 0, "send: \(send.stdout)\(send.stderr)")
    let report = (try? JSONSerialization.jsonObject(with: Data(send.stdout.utf8))) as? [String: Any] ?? [:]
    #expect(report["underruns"] as? Int == 0 && report["late_segments"] as? Int == 0, "\(report)")
    let log = emulator.stop().stderr

    // The writes of the last boot (each boot initialises the DRV2605L: FEEDBACK, register 26).
    let writes = try EmulatorTrace(contentsOf: trace).writes
    let boot = try #require(writes.lastIndex { $0.register == 26 }, "no DRV2605L initialisation in the trace\n\(log)")
    let rtp = writes[boot...].filter { $0.register == EmulatorTrace.rtpInput }
    let levels = try EmulatedBoardTests.renderedLevels(pattern)
    let comparison = try #require(RTPComparison.compare(writes: Array(rtp), levels: levels), "no drive after flashing\n\(log)")
    print(
      "flash and drive: flash \(String(format: "%.2f", flashSeconds)) s, probe answer \(answerMs) ms, "
        + "\(comparison.summary); send retransmits \(report["retransmits"] ?? "?")")
    #expect(comparison.failureCount == 0, "\(comparison.failures.joined(separator: "\n"))")
    #expect(comparison.worstValueDeviation <= 1 && comparison.worstTimingMicroseconds <= 1000)
    #expect(rtp.last?.value == 0, "the drive ends at RTP \(rtp.last.map { String($0.value) } ?? "none")")
  }

  @Test("A blank board on another machine: flash through ser2net over RFC 2217, verified, then it plays over the network")
  func flashThroughSer2Net() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("flash-remote")
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = directory.appendingPathComponent("registers.csv")
    let emulator = try Self.board(blank: true, trace: trace)
    defer { emulator.stop() }
    // ser2net at the firmware's rate: the bootloader's 115 200 is set over RFC 2217 as avrdude
    // sets it on the bridge, and the firmware's 500 000 again when the probe connects.
    let bridge = try Ser2Net(device: emulator.ptyPath, baud: 500_000)
    // Raw TCP carries neither the rate nor DTR: refused before anything is touched.
    let raw = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", bridge.raw])
    #expect(raw.status == 1 && raw.stderr.contains("raw TCP carries neither") && raw.stderr.contains("nothing was written"), "\(raw.stderr)")
    let (flash, flashSeconds) = try Self.seconds {
      try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", bridge.rfc2217])
    }
    #expect(flash.status == 0, "flash: exit \(flash.status)\n\(flash.stdout)\n\(flash.stderr)\n\(emulator.stderrText)")
    #expect(flash.stderr.contains("board reset by DTR over RFC 2217"), "\(flash.stderr)")
    #expect(flash.stderr.contains("bytes of flash verified"), "avrdude verified nothing:\n\(flash.stderr)")
    #expect(flash.stdout.contains("uno-drv2605l") && flash.stdout.contains("haptics: supported"), "\(flash.stdout)")
    // The flashed board plays over the network, and the actuator is driven.
    let send = try CLIRunner.run(["send", "--preset", "success", "--port", bridge.rfc2217, "--json"])
    #expect(send.status == 0, "send: \(send.stdout)\(send.stderr)")
    let report = (try? JSONSerialization.jsonObject(with: Data(send.stdout.utf8))) as? [String: Any] ?? [:]
    #expect(report["board"] as? String == "uno-drv2605l" && report["stopped_by"] as? String == "end", "\(report)")
    let log = emulator.stop().stderr
    let writes = try EmulatorTrace(contentsOf: trace).writes
    let boot = try #require(writes.lastIndex { $0.register == 26 }, "no DRV2605L initialisation in the trace\n\(log)")
    let driven = writes[boot...].filter { $0.register == EmulatorTrace.rtpInput && $0.value != 0 }
    #expect(!driven.isEmpty, "no drive after flashing through ser2net\n\(log)")
    print("flash through ser2net (RFC 2217): \(String(format: "%.2f", flashSeconds)) s, \(driven.count) RTP writes of drive")
  }

  @Test("No bootloader answering: flash fails within 10 s, says nothing was written, the board still plays")
  func noBootloader() throws {
    try EmulatedBoardTests.requireBuilt()
    // The firmware without Optiboot: avrdude's STK500 sync gets no answer.
    let emulator = try EmulatorProcess()
    defer { emulator.stop() }
    let (flash, flashSeconds) = try Self.seconds {
      try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", emulator.ptyPath])
    }
    #expect(flash.status == 1)
    #expect(flash.stderr.contains("found no bootloader answering") && flash.stderr.contains("nothing was written"), "\(flash.stderr)")
    #expect(flashSeconds < 10, "gave up after \(flashSeconds) s")
    let probe = try CLIRunner.run(["probe", "--port", emulator.ptyPath])
    #expect(probe.status == 0 && probe.stdout.contains("haptics: supported"), "the board after a failed flash: \(probe.stdout)")
  }

  @Test("Bad input: a corrupt or truncated hex file and a busy port are refused by name, nothing written")
  func badInput() throws {
    try EmulatedBoardTests.requireBuilt()
    let directory = try CLIRunner.scratchFolder("flash-bad")
    defer { try? FileManager.default.removeItem(at: directory) }
    let image = try String(contentsOf: EmulatorToolchain.firmwareDirectory.appendingPathComponent("build/hapticctl-uno.hex"), encoding: .ascii)
    let corrupt = directory.appendingPathComponent("corrupt.hex")
    try image.replacingOccurrences(of: ":100010", with: ":100011").write(to: corrupt, atomically: true, encoding: .ascii)
    let truncated = directory.appendingPathComponent("truncated.hex")
    // Cut at a line break, as a copy that stopped early would be.
    let lines = image.split(whereSeparator: \.isNewline)
    try (lines.prefix(lines.count / 2).joined(separator: "\r\n") + "\r\n").write(to: truncated, atomically: true, encoding: .ascii)
    let emulator = try Self.board(blank: true)
    defer { emulator.stop() }
    for (file, why) in [(corrupt, "line 2: checksum mismatch"), (truncated, "no end-of-file record")] {
      let result = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", emulator.ptyPath, "--firmware", file.path])
      #expect(result.status == 1)
      #expect(result.stderr.contains("cannot flash \(file.path)") && result.stderr.contains(why), "\(result.stderr)")
    }
    // Another process holds the port: refused before avrdude runs.
    let holder = try EmulatorHost(path: emulator.ptyPath)
    let busy = try CLIRunner.run(["flash", "--board", "uno-drv2605l", "--port", emulator.ptyPath])
    #expect(busy.status == 1)
    #expect(busy.stderr.contains("\(emulator.ptyPath) is busy") && busy.stderr.contains("nothing was written"), "\(busy.stderr)")
    #expect(!busy.stderr.contains("avrdude"), "the tool ran: \(busy.stderr)")
    holder.transport.close()
    // The blank board is untouched: still blank.
    let probe = try CLIRunner.run(["probe", "--port", emulator.ptyPath, "--json"])
    #expect(probe.status == 1, "\(probe.stdout)")
  }
}
