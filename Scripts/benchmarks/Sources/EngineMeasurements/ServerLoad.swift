import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// The board server as users run it (issue 28): `hapticctl serve` in its own process over
/// `hapticctl sim serve` boards on pseudo-terminals, its CPU and memory read from /proc.
///
/// - load: 8 WebSocket clients, 2 per board on 4 boards, each streaming an intensity sine at
///   60 Hz to its own held vibration: the server's CPU (≤ 5 % of a core), and every board's
///   underruns and late batches afterwards (`POST /v1/boards/{id}/probe`: 0 and 0);
/// - idle: 2 boards connected, nothing playing (≤ 0.5 % of a core);
/// - soak: a client every ~2 s connects, plays, streams for ~1 s and vanishes (half close the
///   socket, half drop it); RSS growth from the first minute to the end (≤ 2 %).
enum ServerLoad {
  /// A running program (a `hapticctl` subcommand, an emulator) and its first line of output.
  final class Child {
    let process = Process()
    let firstLine: String
    /// Its standard error, kept for a failed run: /tmp/<program>-<first argument>-<pid>-<n>.err.
    let log: URL

    init(_ executable: String, _ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      let out = Pipe()
      process.standardOutput = out
      let name = URL(fileURLWithPath: executable).lastPathComponent
      log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(arguments.first ?? "")-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err")
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: log)
      try process.run()
      var bytes: [UInt8] = []
      while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { bytes.append(byte) }
      firstLine = String(decoding: bytes, as: UTF8.self)
    }

    var pid: Int32 { process.processIdentifier }

    func stop() {
      process.terminate()
      process.waitUntilExit()
    }
  }

  /// The server process over `boards` sim serve boards: (server, boards, base URL).
  static func start(_ hapticctl: String, boards count: Int) throws -> (Child, [Child], String) {
    let boards = try (0..<count).map { _ in try Child(hapticctl, ["sim", "serve"]) }
    let server = try Child(hapticctl, ["serve", "--listen", "127.0.0.1:0"] + boards.flatMap { ["--port", $0.firstLine] })
    guard server.firstLine.hasPrefix("listening on ") else { throw MeasurementError("serve: \(server.firstLine)") }
    return (server, boards, String(server.firstLine.dropFirst("listening on ".count)))
  }

  /// CPU seconds (user + system) of process `pid`.
  static func cpu(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the name: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
  }

  /// Resident memory of process `pid`, kB.
  static func rss(_ pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }

  static func held(seconds: Double) -> String {
    #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":\#(seconds),"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#
  }

  /// One client: plays a held vibration on `board`, streams a sine on its intensity at 60 Hz for
  /// `seconds`, then stops it (`vanish`: drops the socket without a word instead).
  static func client(_ base: String, board: String, seconds: Double, vanish: Bool = false) async throws -> Int {
    let url = "ws" + base.dropFirst("http".count) + "/v1/ws"
    let sent = Mutex(0)
    try await WebSocketClient.connect(url: url, logger: Logger(label: "load")) { inbound, outbound, _ in
      let player = Mutex<Int?>(nil)
      let reader = Task {
        for try await message in inbound.messages(maxSize: 1 << 20) {
          guard case .text(let text) = message,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            object["type"] as? String == "reply", object["id"] as? Int == 1,
            let id = (object["player"] as? [String: Any])?["id"] as? Int
          else { continue }
          player.withLock { $0 = id }
        }
      }
      try await outbound.write(.text(#"{"op":"play","board":"\#(board)","document":\#(held(seconds: seconds + 5)),"id":1}"#))
      while player.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
      let id = player.withLock { $0 }!
      let clock = ContinuousClock()
      let start = clock.now
      var next = start
      while (clock.now - start).seconds < seconds {
        let t = (clock.now - start).seconds
        let value = 0.55 + 0.45 * sin(2 * Double.pi * t)
        try await outbound.write(.text(#"{"op":"parameters","player":\#(id),"intensity":\#(fmt(value, 4))}"#))
        sent.withLock { $0 += 1 }
        next = next.advanced(by: .microseconds(16_667))
        try await Task.sleep(until: next, clock: clock)
      }
      if !vanish { try await outbound.write(.text(#"{"op":"stop","player":\#(id)}"#)) }
      // Close and let the reader end with the handshake (cancelling it made connect throw
      // CancellationError now and then, as in HapticServerClient).
      try await outbound.close(.normalClosure, reason: nil)
      _ = try? await reader.value
    }
    return sent.withLock { $0 }
  }

  static func load(hapticctl: String, seconds: Double) throws {
    let (server, boards, base) = try start(hapticctl, boards: 4)
    defer {
      server.stop()
      for board in boards { board.stop() }
    }
    pause(1)
    let ids = try blocking { try await boardIDs(base) }
    let before = (cpu(server.pid), Date())
    let sent = try blocking {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<8 { group.addTask { try await client(base, board: ids[index % ids.count], seconds: seconds) } }
        return try await group.reduce(0, +)
      }
    }
    let used = cpu(server.pid) - before.0
    let wall = Date().timeIntervalSince(before.1)
    say("  8 clients × 60 Hz on \(ids.count) boards for \(fmt(wall, 1)) s: \(sent) parameter messages (\(fmt(Double(sent) / wall, 0))/s)")
    say("  server CPU: \(fmt(used, 2)) s = \(fmt(100 * used / wall, 2)) % of a core")
    let health = try blocking { try await probe(base, ids) }
    say("  boards after the run (fresh status): " + health.map { "\($0.id): \($0.underruns) underruns, \($0.late) late" }.joined(separator: "; "))
  }

  static func idle(hapticctl: String, seconds: Double) throws {
    let (server, boards, _) = try start(hapticctl, boards: 2)
    defer {
      server.stop()
      for board in boards { board.stop() }
    }
    // Past clock sync's first seconds (a query every 50 ms until it has its fit).
    pause(5)
    let before = (cpu(server.pid), Date())
    pause(seconds)
    let used = cpu(server.pid) - before.0
    let wall = Date().timeIntervalSince(before.1)
    say("  2 boards connected, nothing playing, \(fmt(wall, 1)) s: server CPU \(fmt(used, 3)) s = \(fmt(100 * used / wall, 3)) % of a core")
  }

  static func soak(hapticctl: String, seconds: Double) throws {
    let (server, boards, base) = try start(hapticctl, boards: 2)
    defer {
      server.stop()
      for board in boards { board.stop() }
    }
    pause(1)
    let ids = try blocking { try await boardIDs(base) }
    let started = Date()
    var samples: [(t: Double, kB: Double)] = []
    var clients = 0
    var nextSample = 0.0
    while Date().timeIntervalSince(started) < seconds {
      let board = ids[clients % ids.count]
      let vanish = clients % 2 == 1
      _ = try? blocking { try await client(base, board: board, seconds: 1, vanish: vanish) }
      clients += 1
      pause(Double.random(in: 0.5...1.5))
      let t = Date().timeIntervalSince(started)
      if t >= nextSample {
        samples.append((t, rss(server.pid)))
        nextSample += 10
      }
    }
    let warm = samples.first { $0.t >= 60 } ?? samples.first!
    let last = samples.last!
    say("  \(clients) clients came and went in \(fmt(last.t, 0)) s (half stopped their player first, half left it playing)")
    say("  RSS: \(fmt(samples.first!.kB, 0)) kB at start, \(fmt(warm.kB, 0)) kB at \(fmt(warm.t, 0)) s, \(fmt(last.kB, 0)) kB at the end: "
      + "growth after warm-up \(fmt(100 * (last.kB - warm.kB) / warm.kB, 2)) %; max \(fmt(samples.map(\.kB).max()!, 0)) kB")
    // The course (a leak climbs steadily; an allocator settling flattens): every 5 minutes.
    let course = samples.filter { Int($0.t) % 300 < 10 }.map { "\(fmt($0.t / 60, 0)) min \(fmt($0.kB, 0))" }
    say("  RSS over time (kB): " + course.joined(separator: ", "))
    let players = try blocking { try await playersLeft(base) }
    say("  players kept by the server at the end: \(players)")
  }

  static func boardIDs(_ base: String) async throws -> [String] {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/v1/boards"), timeout: .seconds(5))
    let body = try await response.body.collect(upTo: 1 << 20)
    let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
    return (object?["boards"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  static func probe(_ base: String, _ ids: [String]) async throws -> [(id: String, underruns: Int, late: Int)] {
    var result: [(String, Int, Int)] = []
    for id in ids {
      var request = HTTPClientRequest(url: base + "/v1/boards/\(id)/probe")
      request.method = .POST
      let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
      let body = try await response.body.collect(upTo: 1 << 20)
      let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
      let health = (object?["board"] as? [String: Any])?["health"] as? [String: Any]
      result.append((id, health?["underruns"] as? Int ?? -1, health?["late_segments"] as? Int ?? -1))
    }
    return result
  }

  static func playersLeft(_ base: String) async throws -> Int {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/v1/players"), timeout: .seconds(5))
    let body = try await response.body.collect(upTo: 1 << 20)
    let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
    return (object?["players"] as? [Any])?.count ?? -1
  }
}
