import HapticCore
import BenchmarkWorkloads
import HapticEngine
import HapticSimulator

/// Onset error under board clock drift (issue 6): `player.start(atTime: engine.currentTime + d)`
/// with d drawn from 50–150 ms, for a one-transient pattern; the error is the board time of the
/// first non-zero drive after the call (the served board's own clock, offset and drift applied)
/// minus the requested time. The host only knows the board clock through the link: exactly on
/// the in-process link (it reads the simulated board's clock), through clock sync over the pty.
enum OnsetMeasurement {
  struct Sample {
    var call: Double
    var requested: Double
    /// engine.currentTime − the board's true clock at the call (clock-sync error).
    var syncError: Double
  }

  /// Virtual clock, in process: deterministic, as fast as the CPU.
  static func virtual(driftPPM: Double, samples: Int, seed: UInt64 = 3) throws {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.driftPPM = driftPPM
    configuration.clockOffset = 7.3
    let rig = try InProcessRig(configuration, clock: .virtual)
    rig.engine.advance(to: 0.5)
    let player = try rig.engine.makePlayer(with: Workloads.oneTransient())
    var rng = SplitMix(seed: seed)
    var taken: [Sample] = []
    for _ in 0..<samples {
      let call = rig.now()
      let requested = rig.engine.currentTime + Double.random(in: 0.050...0.150, using: &rng)
      try player.start(atTime: requested)
      taken.append(Sample(call: call, requested: requested, syncError: 0))
      rig.engine.advance(to: call + 0.25)
    }
    analyze(rig, taken, label: "in process, virtual clock, drift \(signed(driftPPM)) ppm, offset 7.3 s")
    rig.close()
  }

  /// Real time over the paced pty: the engine's clock comes from clock sync.
  static func pty(driftPPM: Double, samples: Int, bitRate: Double, seed: UInt64 = 4) throws {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.driftPPM = driftPPM
    configuration.clockOffset = 7.3
    let rig = try PtyRig(configuration, bitRate: bitRate)
    let startedAt = rig.now()
    let player = try rig.engine.makePlayer(with: Workloads.oneTransient())
    var rng = SplitMix(seed: seed)
    var taken: [Sample] = []
    for _ in 0..<samples {
      let engineNow = rig.engine.currentTime
      let call = rig.now()
      let requested = engineNow + Double.random(in: 0.050...0.150, using: &rng)
      try player.start(atTime: requested)
      taken.append(Sample(call: call, requested: requested, syncError: engineNow - rig.boardSeconds(atRig: call)))
      // Wait until the transient has played out (its drive lasts well under 40 ms).
      pause(requested - rig.engine.currentTime + 0.06)
    }
    let label = "pty at \(Int(bitRate)) bit/s, real time, clock sync, drift \(signed(driftPPM)) ppm, offset 7.3 s"
    let errors = analyze(rig, taken, label: label)
    // Clock sync converges over the first seconds: split the run.
    let early = zip(taken, errors).filter { $0.0.call - startedAt < 3 }.compactMap { $0.1 }
    let late = zip(taken, errors).filter { $0.0.call - startedAt >= 3 }.compactMap { $0.1 }
    sayStats("|onset error|, first 3 s after engine start", early.map(abs))
    sayStats("|onset error|, from 3 s after engine start", late.map(abs))
    sayStats("engine clock − board clock at the call (signed)", taken.map(\.syncError))
    LatencyMeasurement.reportCounters(rig)
    rig.close()
  }

  /// Matches every call to its onset and prints |error| percentiles; returns the signed errors.
  @discardableResult
  static func analyze(_ rig: any Rig, _ taken: [Sample], label: String) -> [Double?] {
    let log = rig.driveLog()
    var errors: [Double?] = []
    for (index, sample) in taken.enumerated() {
      let until = index + 1 < taken.count ? taken[index + 1].call : Double.infinity
      let onset = log.first { $0.time > sample.call && $0.time < until && $0.level != 0 }
      errors.append(onset.map { rig.boardSeconds(atRig: $0.time) - sample.requested })
    }
    let found = errors.compactMap { $0 }
    say("  \(label): \(taken.count) starts, \(taken.count - found.count) without an onset")
    sayStats("|onset error|", found.map(abs))
    sayStats("onset error (signed: + = late)", found)
    return errors
  }

  static func signed(_ value: Double) -> String { value > 0 ? "+\(Int(value))" : "\(Int(value))" }
}
