import BenchmarkWorkloads
import Foundation
import HapticEngine
import HapticEngineSimulator
import HapticSimulator

/// Host CPU while streaming (issue 6, goal ≤ 1 % of a core for the engine).
///
/// Three phases of the same wall time on each setup, CPU measured as process CPU (getrusage)
/// and per thread (each thread's CPU-time clock), divided by wall time:
/// 1. the simulator alone (in process: a real-time ``SimulatorBoardLink`` with no engine; pty:
///    the server with a client that holds the port open and sends nothing);
/// 2. the simulator and a started, idle engine (heartbeats, clock sync, the scheduler loop);
/// 3. the engine streaming ``Workloads/tenSecondsContinuous()`` (10 s of continuous drive
///    under intensity and sharpness curves).
/// The engine's share is phase 3 − phase 1 (process CPU). Per thread: on the pty the host side
/// is the `HapticEngine` and `BoardConnection` threads (and the measuring main thread) and the
/// simulator is `sim-server` + `pace-writer`. In process the split is not clean: the link runs
/// the board's receive path (and physics catch-up) on the calling thread, i.e. the engine's.
enum CPUMeasurement {
  struct Phase {
    var wall: Double
    var process: Double
    var threads: [String: Double]
  }

  /// Measures `body` (which returns when the phase is over).
  static func measure(_ body: () throws -> Void) rethrows -> Phase {
    let threadsBefore = CPUTime.threads()
    let processBefore = CPUTime.process()
    let start = ContinuousClock.now
    try body()
    let wall = (ContinuousClock.now - start).seconds
    let process = CPUTime.process() - processBefore
    return Phase(wall: wall, process: process, threads: CPUTime.delta(from: threadsBefore, to: CPUTime.threads()))
  }

  static func percent(_ cpu: Double, _ wall: Double) -> String { fmt(100 * cpu / wall, 3) + " %" }

  static func print(_ label: String, _ phase: Phase, host: Set<String>, simulator: Set<String>) {
    let hostCPU = phase.threads.filter { host.contains($0.key) }.values.reduce(0, +)
    let simCPU = phase.threads.filter { simulator.contains($0.key) }.values.reduce(0, +)
    say(
      "  \(label): wall \(fmt(phase.wall, 2)) s, process CPU \(fmt(phase.process * 1000, 1)) ms = "
        + percent(phase.process, phase.wall) + " of a core; host threads " + percent(hostCPU, phase.wall)
        + ", simulator threads " + percent(simCPU, phase.wall))
    let threads = phase.threads.filter { $0.value > 0.0002 }.sorted { $0.value > $1.value }
    say("    per thread: " + threads.map { "\($0.key) " + percent($0.value, phase.wall) }.joined(separator: ", "))
  }

  /// Plays the 10 s workload on `engine` and waits for the player's completion.
  static func stream(_ engine: HapticEngine) throws {
    let player = try engine.makeAdvancedPlayer(with: Workloads.tenSecondsContinuous())
    let done = Flag()
    player.completionHandler = { _ in done.raise() }
    try player.start(atTime: 0)
    if !done.wait(timeout: 30) { say("  warning: the player did not complete within 30 s") }
  }

  static func summarize(_ streaming: Phase, _ alone: Phase, _ idle: Phase) {
    let aloneRate = alone.process / alone.wall
    let idleRate = idle.process / idle.wall
    let streamRate = streaming.process / streaming.wall
    say(
      "  => engine while streaming (streaming − simulator alone): " + fmt(100 * (streamRate - aloneRate), 3)
        + " % of a core; engine idle (idle − simulator alone): " + fmt(100 * (idleRate - aloneRate), 3)
        + " %; streaming increment over idle: " + fmt(100 * (streamRate - idleRate), 3) + " %")
  }

  static func inProcess(seconds: Double) throws {
    let configuration = SimulatorConfiguration(profile: .simLRA)
    let host: Set<String> = ["HapticEngine", "main"]
    let simulator: Set<String> = ["SimulatorBoardLink"]
    // 1. Simulator alone: the real-time link's thread, no engine.
    let alone: Phase
    do {
      let link = try ThreadLabels.label("SimulatorBoardLink") {
        try SimulatorBoardLink(configuration: configuration, clock: .realTime)
      }
      pause(0.2)
      alone = measure { pause(seconds) }
      link.close(stopDrive: false)
    }
    print("simulator alone (real-time link, no engine)", alone, host: host, simulator: simulator)
    let rig = try InProcessRig(configuration, clock: .realTime)
    pause(0.2)
    let idle = measure { pause(seconds) }
    print("simulator + idle engine", idle, host: host, simulator: simulator)
    let streaming = try measure { try stream(rig.engine) }
    print("streaming 10 s (tenSecondsContinuous)", streaming, host: host, simulator: simulator)
    summarize(streaming, alone, idle)
    LatencyMeasurement.reportCounters(rig)
    rig.close()
  }

  static func pty(seconds: Double, bitRate: Double) throws {
    let configuration = SimulatorConfiguration(profile: .simLRA)
    let host: Set<String> = ["HapticEngine", "BoardConnection", "main"]
    let simulator: Set<String> = ["sim-server", "pace-writer"]
    let alone: Phase
    do {
      let server = try IdleServer(configuration, bitRate: bitRate)
      pause(0.2)
      alone = measure { pause(seconds) }
      server.close()
    }
    print("server alone (client holds the pty, sends nothing)", alone, host: host, simulator: simulator)
    let rig = try PtyRig(configuration, bitRate: bitRate)
    pause(0.2)
    let idle = measure { pause(seconds) }
    print("server + idle engine over the pty", idle, host: host, simulator: simulator)
    let streaming = try measure { try stream(rig.engine) }
    print("streaming 10 s over the pty", streaming, host: host, simulator: simulator)
    summarize(streaming, alone, idle)
    let hostIdle = idle.threads.filter { host.contains($0.key) }.values.reduce(0, +) / idle.wall
    let hostStreaming = streaming.threads.filter { host.contains($0.key) }.values.reduce(0, +) / streaming.wall
    say(
      "  => host threads only (HapticEngine + BoardConnection + main): idle " + fmt(100 * hostIdle, 3)
        + " %, streaming " + fmt(100 * hostStreaming, 3) + " % of a core")
    LatencyMeasurement.reportCounters(rig)
    rig.close()
  }
}
