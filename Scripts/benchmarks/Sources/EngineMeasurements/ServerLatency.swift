import AsyncHTTPClient
import Foundation
import HapticCore
import HapticEngine
import HapticRenderer
import HapticServer
import HapticSimulator
import Hummingbird
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// The board server's latencies (issue 28): a play request → the board's first frame of it, and a
/// live parameter over the WebSocket → the drive, each ≤ 5 ms p99. The server (``BoardHub`` and
/// its Hummingbird app) runs in this process on loopback over a ``PtyRig`` board (the simulator
/// serving a paced pty, as `sim serve` does), so the client's call times and the board's drive
/// log share one clock.
enum ServerLatency {
  static let tap = #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#

  /// Serves `rig`'s board on a free loopback port; returns the base URL.
  static func serve(_ rig: PtyRig) throws -> String {
    let hub = BoardHub()
    hub.add(rig.engine, link: rig.link, profile: .simLRA, source: rig.pty.path)
    let router = BoardServer.router(hub: hub)
    let port = Mutex<Int?>(nil)
    let app = Application(
      router: router, server: BoardServer.server(for: router),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } })
    Task { try await app.runService() }
    for _ in 0..<500 where port.withLock({ $0 }) == nil { pause(0.01) }
    guard let bound = port.withLock({ $0 }) else { throw MeasurementError("the server did not start") }
    return "http://127.0.0.1:\(bound)"
  }

  /// `POST /v1/boards/sim-lra/play` of a transient every 100–150 ms; latency = the board's first
  /// non-zero drive after the call − the call.
  static func play(bitRate: Double, samples: Int) throws {
    let rig = try PtyRig(.init(profile: .simLRA), bitRate: bitRate)
    defer { rig.close() }
    let base = try serve(rig)
    var rng = SplitMix(seed: 28)
    var calls: [(call: Double, answered: Double, status: Int)] = []
    for _ in 0..<(samples + 5) {
      let call = rig.now()
      let status = try blocking {
        var request = HTTPClientRequest(url: base + "/v1/boards/sim-lra/play")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: tap))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        _ = try await response.body.collect(upTo: 1 << 16)
        return Int(response.status.code)
      }
      calls.append((call, rig.now(), status))
      pause(Double.random(in: 0.100...0.150, using: &rng))
    }
    pause(0.1)
    rig.engine.requestStatus()
    pause(0.1)
    let log = rig.driveLog()
    var latencies: [Double] = []
    var answers: [Double] = []
    // The first 5 warm the connection and the code paths.
    for (index, call) in calls.enumerated().dropFirst(5) {
      let until = index + 1 < calls.count ? calls[index + 1].call : rig.now()
      answers.append(call.answered - call.call)
      if let onset = log.first(where: { $0.time > call.call && $0.time < until && $0.level != 0 }) {
        latencies.append(onset.time - call.call)
      }
    }
    let refused = calls.filter { $0.status != 201 }.count
    say("  \(samples) plays at \(Int(bitRate)) bit/s, \(refused) refused, \(samples - latencies.count) without an onset")
    let statistics = rig.link.statistics
    say("  link: delivery delay (decaying max) \(fmt(statistics.deliveryDelay * 1000, 2)) ms, round trip \(fmt((statistics.roundTrip ?? 0) * 1000, 2)) ms")
    sayStats("play request → first frame on the board", latencies)
    sayStats("play request → 201 answer", answers)
    LatencyMeasurement.reportCounters(rig)
  }

  /// A held vibration played by a WebSocket client, whose intensity flips between 1.0 and 0.3
  /// every 30–70 ms over the socket (no reply asked); latency as ``LatencyMeasurement``: the
  /// call → the first drive change past the midpoint of the two steady levels.
  static func live(bitRate: Double, samples: Int) throws {
    let rig = try PtyRig(.init(profile: .simLRA), bitRate: bitRate)
    defer { rig.close() }
    let base = try serve(rig)
    let length = Double(samples) * 0.07 + 3
    let held = #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":\#(length),"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1}]}}]}"#
    let url = "ws" + base.dropFirst("http".count) + "/v1/ws"
    let taken = Mutex<[(call: Double, value: Double)]>([])
    let levels = Mutex<(high: Double, low: Double)>((0, 0))
    let now = rig.clock
    _ = try blocking {
      try await WebSocketClient.connect(url: url, logger: Logger(label: "measure")) { inbound, outbound, _ in
        let reader = Task { for try await _ in inbound.messages(maxSize: 1 << 20) {} }
        try await outbound.write(.text(#"{"op":"play","board":"sim-lra","document":\#(held)}"#))
        try await Task.sleep(for: .milliseconds(300))
        func send(_ value: Double) async throws {
          try await outbound.write(.text(#"{"op":"parameters","player":1,"intensity":\#(value)}"#))
        }
        try await send(1.0)
        try await Task.sleep(for: .milliseconds(200))
        let high = now()
        try await send(0.3)
        try await Task.sleep(for: .milliseconds(200))
        levels.withLock { $0 = (high, now()) }
        var rng = SplitMix(seed: 6)
        for i in 0..<samples {
          let value = i % 2 == 0 ? 1.0 : 0.3
          let call = now()
          try await send(value)
          taken.withLock { $0.append((call, value)) }
          try await Task.sleep(for: .milliseconds(Int(Double.random(in: 30...70, using: &rng))))
        }
        try await outbound.close(.normalClosure, reason: nil)
        _ = try? await reader.value
      }
    }
    pause(0.2)
    let log = rig.driveLog()
    func level(at t: Double) -> Int { log.last { $0.time <= t }?.level ?? 0 }
    let (highAt, lowAt) = levels.withLock { $0 }
    let mid = Double(level(at: highAt) + level(at: lowAt)) / 2
    say("  steady levels: \(level(at: highAt)) at intensity 1.0, \(level(at: lowAt)) at 0.3 (midpoint \(fmt(mid, 1)))")
    let calls = taken.withLock { $0 }
    var latencies: [Double] = []
    for (index, sample) in calls.enumerated() {
      let until = index + 1 < calls.count ? calls[index + 1].call : rig.now()
      let change = log.first { change in
        change.time > sample.call && change.time < until
          && (sample.value > 0.5 ? Double(change.level) > mid : Double(change.level) < mid)
      }
      if let change { latencies.append(change.time - sample.call) }
    }
    say("  \(samples) live changes at \(Int(bitRate)) bit/s, \(samples - latencies.count) without a matching drive change")
    sayStats("WebSocket parameter → drive change", latencies)
    LatencyMeasurement.reportCounters(rig)
  }
}

struct MeasurementError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body` on the cooperative pool and waits for it (the measurement's threads are plain).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      let value = try await body()
      result.withLock { $0 = .success(value) }
    } catch {
      result.withLock { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  return try result.withLock { $0 }!.get()
}
