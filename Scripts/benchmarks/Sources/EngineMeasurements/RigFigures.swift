import Foundation

/// Rigs (issue 30) as users run them: `hapticctl rig measure` and `hapticctl send --rig` in their
/// own processes over `hapticctl sim serve` boards on pseudo-terminals, two of them behind Debian's
/// ser2net with a network's delay.
///
/// - skew: 8 boards — 5 local at −200, −100, 0, +100, +200 ppm with clocks seconds apart, 2 at
///   ∓150 ppm behind ser2net (raw TCP and RFC 2217), each with 2 ± 1 ms each way (`sim serve
///   --delay-ms 2 --jitter-ms 1`), and the emulated Uno + DRV2605L (`emulate`) — a tap on every
///   board every `interval` for `seconds`; the skew across boards from the boards' own traces on
///   the host's clock (`--trace-host-time`);
/// - load: 16 `sim-dual` boards × 2 channels, a corpus AHAP looping on each of the 32 actuators
///   for `seconds`: `send --rig`'s CPU and memory, and every board's underruns and late batches.
enum RigFigures {
  /// ser2net in front of pseudo-terminals, one accepter each (`raw` or `rfc2217`), at 1 Mbaud.
  final class Ser2Net {
    let process = Process()
    let urls: [String]
    let folder: URL

    init(_ devices: [(path: String, kind: String)]) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-ser2net-\(getpid())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var config = ""
      var urls: [String] = []
      for (index, device) in devices.enumerated() {
        let port = try Self.freePort()
        let accepter = device.kind == "raw" ? "tcp(nodelay),127.0.0.1,\(port)" : "telnet(rfc2217),tcp(nodelay),127.0.0.1,\(port)"
        config += """
          connection: &c\(index)
            accepter: \(accepter)
            connector: serialdev,\(device.path),1000000n81,local
            options:
              kickolduser: true
              chardelay: false

          """
        urls.append((device.kind == "raw" ? "tcp" : "rfc2217") + "://127.0.0.1:\(port)")
      }
      self.urls = urls
      let file = folder.appendingPathComponent("ser2net.yaml")
      try config.write(to: file, atomically: true, encoding: .utf8)
      process.executableURL = URL(fileURLWithPath: "/usr/sbin/ser2net")
      process.arguments = ["-n", "-u", "-c", file.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      pause(0.5)
    }

    func stop() {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: folder)
    }

    /// A TCP port free on 127.0.0.1 now.
    static func freePort() throws -> Int {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      defer { close(fd) }
      var address = sockaddr_in(
        sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
        sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
      }
      guard bound else { throw MeasurementError("cannot find a free port") }
      return Int(UInt16(bigEndian: address.sin_port))
    }
  }

  /// Writes a rig file of `boards` (name, port, board id), one actuator per channel.
  static func rigFile(_ boards: [(name: String, port: String, board: String, channels: Int)], in folder: URL) throws -> String {
    let boardEntries = boards.map { #"{"name":"\#($0.name)","port":"\#($0.port)","board":"\#($0.board)"}"# }
    let actuators = boards.flatMap { board in
      (0..<board.channels).map { #"{"name":"\#(board.name)-\#($0)","board":"\#(board.name)","channel":\#($0)}"# }
    }
    let path = folder.appendingPathComponent("rig.json").path
    try #"{"schema":1,"name":"bench","boards":[\#(boardEntries.joined(separator: ","))],"actuators":[\#(actuators.joined(separator: ","))]}"#
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func skew(hapticctl: String, seconds: Double, interval: Double) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-skew-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let drifts = [-200, -100, 0, 100, 200, -150, 150]
    let boards = try drifts.enumerated().map { index, drift in
      try ServerLoad.Child(
        hapticctl,
        ["sim", "serve", "--drift-ppm", String(drift), "--clock-offset", String(7 * index + 3), "--seed", String(index + 1),
         "--trace", folder.appendingPathComponent("b\(index).csv").path, "--trace-host-time"]
          + (index >= 5 ? ["--delay-ms", "2", "--jitter-ms", "1"] : []))
    }
    defer { for board in boards { board.stop() } }
    // The eighth: the Uno + DRV2605L's real firmware on its emulator, its rows on the host's
    // clock by the emulator's anchors.
    let uno = try ServerLoad.Child(hapticctl, ["emulate", "--trace", folder.appendingPathComponent("b7.csv").path, "--trace-host-time"])
    defer { uno.stop() }
    try requireStarted(boards + [uno])
    let bridge = try Ser2Net([(boards[5].firstLine, "raw"), (boards[6].firstLine, "rfc2217")])
    defer { bridge.stop() }
    let ports = boards.prefix(5).map(\.firstLine) + bridge.urls
    let rig = try rigFile(
      ports.enumerated().map { ("b\($0.offset)", $0.element, "sim-lra", 1) } + [("b7", uno.firstLine, "uno-drv2605l", 1)], in: folder)
    let count = Int(seconds / interval)
    let arguments = ["rig", "measure", rig, "--count", String(count), "--interval", String(interval), "--json"]
      + (0..<8).flatMap { ["--trace", "b\($0)=" + folder.appendingPathComponent("b\($0).csv").path] }
    let (status, output, errors) = try run(hapticctl, arguments)
    guard status == 0, let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
      throw MeasurementError("rig measure failed (\(status)): \(output)\(errors)")
    }
    say("  \(count) taps, one every \(fmt(interval, 2)) s (\(fmt(seconds / 60, 1)) min) on 8 boards (b5 raw TCP, b6 RFC 2217, both 2 ± 1 ms each way; b7 the emulated Uno + DRV2605L):")
    for board in object["boards"] as? [[String: Any]] ?? [] {
      say("    \(board["name"] ?? "?"): \(board["onsets"] ?? "?") onsets, offset p50 \(board["offset_p50_ms"] ?? "?") ms, "
        + "min \(board["offset_min_ms"] ?? "?"), max \(board["offset_max_ms"] ?? "?") ms; "
        + "late batches \(board["late_segments"] ?? "?"), underruns \(board["underruns"] ?? "?"); "
        + "clock fit residual \(board["clock_residual_us"] ?? "?") µs (fastest round trip \(board["clock_round_trip_ms"] ?? "?") ms), \(board["clock_queries_per_s"] ?? "?") queries/s")
    }
    say("  skew across boards: p50 \(object["skew_p50_ms"] ?? "?") ms, p99 \(object["skew_p99_ms"] ?? "?") ms, "
      + "max \(object["skew_max_ms"] ?? "?") ms; missed taps \(object["missed"] ?? "?")")
  }

  static func load(hapticctl: String, seconds: Double, corpus: URL) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-load-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".ahap") && !$0.contains("invalid") }.sorted()
    guard !files.isEmpty else { throw MeasurementError("no AHAP files in \(corpus.path)") }
    // A two-LRA simulated board (170 and 150 Hz), as a user's board file.
    try #"""
      {"schema": 1, "id": "sim-dual", "name": "Simulated two-LRA board", "vendor": "bench", "driver": "simulator",
       "usb": [], "link": {"baud": 1000000}, "framePeriodMs": 1, "levels": {"bits": 8, "signed": true},
       "frequencyControlHz": [80, 300],
       "channels": [
         {"actuator": "lra", "f0Hz": 170, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5},
         {"actuator": "lra", "f0Hz": 150, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5}]}
      """#.write(to: folder.appendingPathComponent("sim-dual.json"), atomically: true, encoding: .utf8)
    let boardsDir = ["--boards-dir", folder.path]
    let boards = try (0..<16).map { _ in try ServerLoad.Child(hapticctl, ["sim", "serve", "--board", "sim-dual"] + boardsDir) }
    defer { for board in boards { board.stop() } }
    try requireStarted(boards)
    let rig = try rigFile(boards.enumerated().map { ("b\($0.offset)", $0.element.firstLine, "sim-dual", 2) }, in: folder)
    var arguments = ["send", "--rig", rig, "--loop", "--live", "--json", "--no-audio"] + boardsDir
    var played: [String] = []
    for board in 0..<16 {
      for channel in 0..<2 {
        let file = files[(2 * board + channel) % files.count]
        arguments += ["--actuator", "b\(board)-\(channel)", corpus.appendingPathComponent(file).path]
        played.append(file)
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: hapticctl)
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    let errors = folder.appendingPathComponent("send.err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    // The rig opens (1 s of clock sync) and the players start: measure from 5 s on.
    pause(5)
    let before = (cpu: ServerLoad.cpu(process.processIdentifier), rss: ServerLoad.rss(process.processIdentifier), at: Date())
    // RSS every 10 s: what it grows by after the first minute (the server soak's measure: the
    // first minute fills the clock fits' windows, the allocator's caches) as well as from 5 s.
    var samples: [(at: Double, rss: Double)] = []
    while Date().timeIntervalSince(before.at) < seconds {
      pause(min(10, seconds - Date().timeIntervalSince(before.at)))
      samples.append((Date().timeIntervalSince(before.at) + 5, ServerLoad.rss(process.processIdentifier)))
    }
    let settled = samples.first { $0.at >= 60 }
    let after = (cpu: ServerLoad.cpu(process.processIdentifier), rss: ServerLoad.rss(process.processIdentifier), at: Date())
    input.fileHandleForWriting.write(Data("stop\n".utf8))
    let report = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let wall = after.at.timeIntervalSince(before.at)
    guard process.terminationStatus == 0,
      let object = try? JSONSerialization.jsonObject(with: report) as? [String: Any]
    else {
      throw MeasurementError("send --rig failed (\(process.terminationStatus)): \(String(decoding: report, as: UTF8.self))"
        + ((try? String(contentsOf: errors, encoding: .utf8)) ?? ""))
    }
    say("  16 sim-dual boards × 2 channels, \(Set(played).count) corpus files looping on 32 actuators, \(fmt(wall, 0)) s measured:")
    say("  send --rig CPU: \(fmt(after.cpu - before.cpu, 2)) s = \(fmt(100 * (after.cpu - before.cpu) / wall, 2)) % of a core; "
      + "RSS \(fmt(before.rss, 0)) kB at 5 s, \(fmt(after.rss, 0)) kB at the end (\(fmt(100 * (after.rss - before.rss) / before.rss, 2)) %)"
      + (settled.map { "; \(fmt($0.rss, 0)) kB at \(fmt($0.at, 0)) s, \(fmt(100 * (after.rss - $0.rss) / $0.rss, 2)) % since" } ?? ""))
    say("  RSS every 10 s (kB): " + samples.map { fmt($0.rss, 0) }.joined(separator: " "))
    let reports = object["boards"] as? [[String: Any]] ?? []
    let underruns = reports.map { $0["underruns"] as? Int ?? -1 }
    let late = reports.map { $0["late_segments"] as? Int ?? -1 }
    let queries = reports.map { ($0["clock_queries_per_s"] as? Double).map { fmt($0, 0) } ?? "?" }
    say("  clock queries a second at the end, per board: " + queries.joined(separator: " "))
    say("  boards: underruns \(underruns.map(String.init).joined(separator: " ")); late \(late.map(String.init).joined(separator: " "))"
      + " (-1: the board did not answer its final status)")
  }

  /// Fails with its messages unless every child printed its pseudo-terminal.
  static func requireStarted(_ children: [ServerLoad.Child]) throws {
    if let failed = children.first(where: { !$0.firstLine.hasPrefix("/") }) {
      throw MeasurementError("a board did not start: \((try? String(contentsOf: failed.log, encoding: .utf8)) ?? "")")
    }
  }

  /// Runs `executable` with `arguments` to its end: (status, standard output, standard error).
  static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("rig-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
  }
}
