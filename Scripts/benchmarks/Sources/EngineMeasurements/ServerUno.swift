import AsyncHTTPClient
import Foundation
import HapticCore
import HapticTransport
import NIOCore

/// The board server's play latency on the emulated Uno + DRV2605L (issue 28): `hapticctl serve`
/// in its own process over the firmware running in simavr (`hapticctl-emu-uno`, paced on the
/// wall clock), a tap posted every 100–150 ms; latency = the call → the first non-zero RTP
/// register write of the DRV2605L (the drive the LRA gets) after it.
///
/// The emulator's register trace is in simulated microseconds from its start; it ties its cycle 0
/// to the wall clock (CLOCK_MONOTONIC, as the calls are stamped) when it prints the pty's path,
/// so a write's wall time is the moment that line was read plus its simulated time. The
/// emulator runs without a bootloader and without auto-reset (neither re-anchors its clock); its
/// exit report says how far it ever lagged the wall clock (the error of that mapping).
enum ServerUno {
  static func play(hapticctl: String, boards: URL, samples: Int) throws {
    for (folder, arguments) in [("uno-drv2605l/firmware", [String]()), ("uno-emulator", ["BOARD=uno-drv2605l"])] {
      let make = Process()
      make.executableURL = URL(fileURLWithPath: "/usr/bin/make")
      make.arguments = ["-s", "-C", boards.appendingPathComponent(folder).path] + arguments
      try make.run()
      make.waitUntilExit()
      guard make.terminationStatus == 0 else { throw MeasurementError("make in Boards/\(folder) failed") }
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("uno-latency-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let trace = work.appendingPathComponent("trace.csv")
    let emulator = try ServerLoad.Child(
      boards.appendingPathComponent("uno-emulator/build/uno-drv2605l/hapticctl-emu-uno").path,
      ["--firmware", boards.appendingPathComponent("uno-drv2605l/firmware/build/hapticctl-uno.elf").path, "--trace", trace.path])
    // Its cycle 0 stands for the moment it printed the pty's path (just read).
    let anchor = MonotonicTime.seconds()
    let pty = emulator.firstLine
    var emulatorRunning = true
    defer { if emulatorRunning { emulator.stop() } }
    let server = try ServerLoad.Child(hapticctl, ["serve", "--listen", "127.0.0.1:0", "--port", pty])
    defer { server.stop() }
    guard server.firstLine.hasPrefix("listening on ") else { throw MeasurementError("serve: \(server.firstLine)") }
    let base = String(server.firstLine.dropFirst("listening on ".count))
    pause(1)
    guard let board = try blocking({ try await ServerLoad.boardIDs(base) }).first else {
      throw MeasurementError("the server has no board")
    }
    var rng = SplitMix(seed: 28)
    var calls: [(call: Double, status: Int)] = []
    for _ in 0..<(samples + 5) {
      let call = MonotonicTime.seconds()
      let status = try blocking {
        var request = HTTPClientRequest(url: base + "/v1/boards/\(board)/play")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: ServerLatency.tap))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 16)
        return Int(response.status.code)
      }
      calls.append((call, status))
      pause(Double.random(in: 0.100...0.150, using: &rng))
    }
    let health = try blocking { try await ServerLoad.probe(base, [board]) }
    server.stop()
    // SIGTERM: it flushes the trace and writes its report (how far it lagged) before exiting.
    emulator.stop()
    emulatorRunning = false
    // The DRV2605L's RTP_INPUT register (0x02): a non-zero write is drive.
    let onsets = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { row -> Double? in
      let fields = row.split(separator: ",")
      guard fields.count == 3, fields[1] == "2", fields[2] != "0", let micros = Double(fields[0]) else { return nil }
      return anchor + micros / 1e6
    }
    var latencies: [Double] = []
    for (index, call) in calls.enumerated().dropFirst(5) {
      let until = index + 1 < calls.count ? calls[index + 1].call : .infinity
      if let onset = onsets.first(where: { $0 > call.call && $0 < until }) { latencies.append(onset - call.call) }
    }
    say("  \(samples) plays on \(board) (emulated, hapticctl serve over its pty), \(calls.filter { $0.status != 201 }.count) refused, \(samples - latencies.count) without an onset")
    sayStats("play request → first RTP drive write on the board", latencies)
    say("  board after the run: " + health.map { "\($0.underruns) underruns, \($0.late) late" }.joined())
    let lines = (try? String(contentsOf: emulator.log, encoding: .utf8))?.split(separator: "\n") ?? []
    for line in lines where line.contains("lag") || line.contains("slip") { say("  emulator: \(line)") }
  }

}
