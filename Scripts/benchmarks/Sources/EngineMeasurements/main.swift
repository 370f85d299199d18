import Foundation
import HapticEngine
import HapticRenderer
import HapticSimulator

// Engine measurements for issue 6 (a measurement tool, not timed unit tests). See README.md.
//
//   swift run -c release EngineMeasurements [SECTION…] [options]
//
// Sections (default: all, in this order): latency, latency-pty, onset, onset-pty, cpu, cpu-pty,
// cold. Options: --samples N (latency calls, 200), --onset-samples N (in process, 1000),
// --pty-onset-samples N (150), --cpu-seconds S (10), --bit-rate B (1000000), --drop P and
// --corrupt Q (line faults of latency-pty, 0), --guard-ms G (latency-pty's engine guard; the
// default's otherwise), --hapticctl PATH
// (default <checkout>/.build/release/hapticctl), --boards DIR (server-uno's firmware and
// emulator, default <checkout>/Boards), --runs N (cold-start runs, 20),
// --strace-runs N (10; 0 skips the strace breakdown). The board server's sections (server-…)
// and the rigs' (rig-skew, rig-load: --rig-seconds S, --rig-interval S, --corpus DIR) run only
// when named (README.md).

let usage = """
  usage: EngineMeasurements [latency|latency-pty|onset|onset-pty|cpu|cpu-pty|cold …]
         [server-play|server-uno|server-live|server-load|server-idle|server-soak …] [rig-skew|rig-load …]
         [--samples N] [--onset-samples N] [--pty-onset-samples N] [--cpu-seconds S]
         [--bit-rate B] [--drop P] [--corrupt Q] [--guard-ms G] [--hapticctl PATH] [--boards DIR] [--runs N]
         [--strace-runs N] [--load-seconds S] [--idle-seconds S] [--soak-seconds S]
         [--rig-seconds S] [--rig-interval S] [--corpus DIR]
  """
let allSections = ["latency", "latency-pty", "onset", "onset-pty", "cpu", "cpu-pty", "cold"]
/// The board server's (issue 28), run only when named.
let serverSections = ["server-play", "server-uno", "server-live", "server-load", "server-idle", "server-soak"]
/// Rigs of boards (issue 30), run only when named.
let rigSections = ["rig-skew", "rig-load"]
var sections: [String] = []
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "-h" || argument == "--help" {
    print(usage)
    exit(0)
  } else if argument.hasPrefix("--") {
    guard let value = arguments.popFirst() else {
      print("missing value for \(argument)\n\(usage)")
      exit(2)
    }
    options[String(argument.dropFirst(2))] = value
  } else if allSections.contains(argument) || serverSections.contains(argument) || rigSections.contains(argument) {
    sections.append(argument)
  } else {
    print("unknown section '\(argument)'\n\(usage)")
    exit(2)
  }
}
if sections.isEmpty { sections = allSections }
@MainActor func option(_ name: String, _ fallback: Double) -> Double { options[name].flatMap(Double.init) ?? fallback }
let samples = Int(option("samples", 200))
let onsetSamples = Int(option("onset-samples", 1000))
let ptyOnsetSamples = Int(option("pty-onset-samples", 150))
let cpuSeconds = option("cpu-seconds", 10)
let bitRate = option("bit-rate", 1_000_000)
let runs = Int(option("runs", 20))
var lineFaults = SimulatorServer.Faults()
lineFaults.dropRate = option("drop", 0)
lineFaults.corruptRate = option("corrupt", 0)
/// The engine's guard for latency-pty (`HapticEngine.Configuration.guardTime`), 0: the default.
let guardMilliseconds = option("guard-ms", 0)
let straceRuns = Int(option("strace-runs", 10))
// #filePath is <checkout>/Scripts/benchmarks/Sources/EngineMeasurements/main.swift.
var checkout = URL(fileURLWithPath: #filePath)
for _ in 0..<5 { checkout.deleteLastPathComponent() }
let hapticctl = options["hapticctl"] ?? checkout.appendingPathComponent(".build/release/hapticctl").path

let simulatorConfiguration = "sim-lra board, 16 kHz physics, 1 kHz frames, engine defaults (lookahead 80 ms, guard 1 ms, a pass when half the lookahead is left)"
say("EngineMeasurements — \(simulatorConfiguration)")
do {
  for section in sections {
    say("")
    switch section {
    case "latency":
      say("[1] sendParameters → board drive latency, in process (SimulatorBoardLink, real time)")
      let rig = try InProcessRig(.init(profile: .simLRA), clock: .realTime)
      try LatencyMeasurement.run(rig, label: "in process", samples: samples)
      rig.close()
    case "latency-pty":
      say("[2] sendParameters → board drive latency over a pty paced at \(Int(bitRate)) bit/s (SimulatorServer + SerialBoardLink)"
        + ", drop \(lineFaults.dropRate), corrupt \(lineFaults.corruptRate)"
        + (guardMilliseconds > 0 ? ", guard \(fmt(guardMilliseconds, 1)) ms" : ""))
      try PtyBaseline.run()
      var configuration = SimulatorConfiguration(profile: .simLRA)
      configuration.clockOffset = 2.5
      var engine = HapticEngine.Configuration()
      if guardMilliseconds > 0 { engine.guardTime = guardMilliseconds / 1000 }
      let rig = try PtyRig(configuration, bitRate: bitRate, faults: lineFaults, engine: engine)
      try LatencyMeasurement.run(rig, label: "pty", samples: samples)
      rig.close()
    case "onset":
      say("[3a] onset error with ±200 ppm board drift, in process, virtual clock")
      for drift in [-200.0, 200.0] { try OnsetMeasurement.virtual(driftPPM: drift, samples: onsetSamples) }
    case "onset-pty":
      say("[3b] onset error with ±200 ppm board drift over the pty (clock sync), real time")
      for drift in [-200.0, 200.0] {
        try OnsetMeasurement.pty(driftPPM: drift, samples: ptyOnsetSamples, bitRate: bitRate)
      }
    case "cpu":
      say("[4a] host CPU while streaming, in process (real-time SimulatorBoardLink), \(fmt(cpuSeconds, 0)) s phases")
      try CPUMeasurement.inProcess(seconds: cpuSeconds)
    case "cpu-pty":
      say("[4b] host CPU while streaming over the pty at \(Int(bitRate)) bit/s, \(fmt(cpuSeconds, 0)) s phases")
      try CPUMeasurement.pty(seconds: cpuSeconds, bitRate: bitRate)
    case "server-play":
      say("[6] board server: play request → first frame on the board (in process, pty board)")
      for rate in [bitRate, 115_200] { try ServerLatency.play(bitRate: rate, samples: samples) }
    case "server-uno":
      say("[6b] board server: play request → first frame on the emulated Uno + DRV2605L (hapticctl serve over hapticctl-emu-uno)")
      let boards = options["boards"].map { URL(fileURLWithPath: $0) } ?? checkout.appendingPathComponent("Boards")
      try ServerUno.play(hapticctl: hapticctl, boards: boards, samples: samples)
    case "server-live":
      say("[7] board server: live parameter over the WebSocket → drive (in process, pty board at \(Int(bitRate)) bit/s)")
      try ServerLatency.live(bitRate: bitRate, samples: samples)
    case "server-load":
      say("[8] board server: 8 clients streaming at 60 Hz to 4 boards (hapticctl serve over sim serve, \(fmt(option("load-seconds", 60), 0)) s)")
      try ServerLoad.load(hapticctl: hapticctl, seconds: option("load-seconds", 60))
    case "server-idle":
      say("[9] board server: idle with 2 boards")
      try ServerLoad.idle(hapticctl: hapticctl, seconds: option("idle-seconds", 30))
    case "server-soak":
      say("[10] board server: clients connecting and vanishing (\(fmt(option("soak-seconds", 300), 0)) s)")
      try ServerLoad.soak(hapticctl: hapticctl, seconds: option("soak-seconds", 300))
    case "rig-skew":
      say("[11] rig: onset skew across 8 boards, 2 behind ser2net, 1 emulated Uno (hapticctl rig measure over sim serve, \(fmt(option("rig-seconds", 600), 0)) s)")
      try RigFigures.skew(hapticctl: hapticctl, seconds: option("rig-seconds", 600), interval: option("rig-interval", 0.5))
    case "rig-load":
      say("[12] rig: 16 two-channel boards streaming the corpus (hapticctl send --rig over sim serve, \(fmt(option("rig-seconds", 600), 0)) s)")
      let corpus = options["corpus"].map { URL(fileURLWithPath: $0) }
        ?? checkout.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
      try RigFigures.load(hapticctl: hapticctl, seconds: option("rig-seconds", 600), corpus: corpus)
    case "cold":
      say("[5] cold hapticctl send --sim: launch to first frame")
      ColdStart.run(hapticctl: hapticctl, runs: runs, straceRuns: straceRuns)
    default:
      break
    }
    say("  (\(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores)")
  }
} catch {
  say("error: \(error)")
  exit(1)
}
