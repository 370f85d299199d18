import ArgumentParser
import Foundation
import HapticCore
import HapticEngine
import HapticRig

/// `hapticctl rig measure FILE --trace BOARD=TRACE.csv… [--count N] [--interval S] [--json]`:
/// the onset skew across a rig's simulated boards.
struct RigMeasure: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "measure", abstract: "Measure how far apart a rig's boards start one pattern (simulated boards).",
    discussion: """
      Plays a tap on every actuator of the rig COUNT times, each started on one instant of the \
      rig's timeline, then reads each board's trace — `hapticctl sim serve (or emulate) --trace \
      TRACE.csv --trace-host-time`, rows on the host's monotonic clock — and prints, per board, where its \
      onsets fell against the instant asked for, and the skew across boards (the latest onset \
      less the earliest, per start): p50, p99 and max. Every board of the rig needs --trace.
      """)

  @OptionGroup var options: RigOptions

  @Option(
    name: .customLong("trace"),
    help: ArgumentHelp("A board's trace from sim serve or emulate --trace FILE --trace-host-time (repeat for every board).", valueName: "BOARD=FILE"))
  var traces: [String] = []

  @Option(parsing: .unconditional, help: "Taps to play.")
  var count = 20

  @Option(parsing: .unconditional, help: "Seconds between taps (at least 0.1).")
  var interval = 0.25

  @Option(parsing: .unconditional, help: "Seconds of clock sync before the first tap (each board's drift fit needs a few).")
  var settle: Double = 5

  @Flag(help: "Print one JSON object.")
  var json = false

  func validate() throws {
    guard settle >= 0 && settle <= 600 else { throw ValidationError("--settle must be 0–600 seconds") }
    guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1–100000") }
    guard interval >= 0.1 && interval <= 60 else { throw ValidationError("--interval must be 0.1–60 seconds") }
    _ = try traceFiles()
  }

  /// The `--trace BOARD=FILE` pairs.
  func traceFiles() throws -> [String: String] {
    var files: [String: String] = [:]
    for pair in traces {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw ValidationError("--trace \(pair): give BOARD=FILE (the rig's name for the board, its sim serve trace)")
      }
      guard files[parts[0]] == nil else { throw ValidationError("--trace \(parts[0]) is given twice") }
      files[parts[0]] = parts[1]
    }
    return files
  }

  func run() throws {
    let file = try options.load()
    let files = try traceFiles()
    if let missing = file.boards.first(where: { files[$0.name] == nil }) {
      throw CLIError("rig measure: no --trace for board \(missing.name) (every board needs its sim serve trace)")
    }
    if let unknown = files.keys.sorted().first(where: { name in !file.boards.contains { $0.name == name } }) {
      throw CLIError("rig measure: --trace \(unknown): the rig has no board of that name (boards: \(file.boards.map(\.name).joined(separator: ", ")))")
    }
    let rig = try RigOptions.open(file, boards: options.boardOptions)
    defer { rig.close() }
    // Each board's clock fit settles over its first seconds of round trips (docs/rigs.md).
    usleep(UInt32(settle * 1_000_000))
    guard let tap = HapticPresets.pattern("impact-heavy") else { throw CLIError("no tap preset") }
    let player: RigPlayer
    do {
      player = try rig.makePlayer(with: tap, actuators: file.actuators.map(\.name))
    } catch {
      throw CLIError("rig measure: \(error)")
    }
    var instants: [Double] = []
    let first = rig.currentTime + 0.2
    for index in 0..<count {
      let at = first + Double(index) * interval
      let wait = at - 0.1 - rig.currentTime
      if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
      do {
        instants.append(rig.hostSeconds(atRigTime: try player.start(atTime: at)))
      } catch {
        throw CLIError("rig measure: \(error)")
      }
    }
    usleep(UInt32((instants.last.map { $0 - rig.hostSeconds(atRigTime: rig.currentTime) } ?? 0) * 1_000_000) + 500_000)
    // What each board says of the run: a batch that reached it late starts its tap late.
    let counts = Dictionary(uniqueKeysWithValues: rig.members.map { member in
      (member.entry.name, member.engine.reportWithBoardStatus(timeout: 1))
    })
    // And how each board's clock fit went: its residual, and how often its clock was asked.
    let links = Dictionary(uniqueKeysWithValues: rig.members.map { ($0.entry.name, $0.engine.link.statistics) })
    rig.close()
    let window = min(interval / 2, 0.05)
    var boards: [RigSkew.Board] = []
    for member in rig.members {
      let channels = Set(file.actuators.filter { $0.board == member.entry.name }.map(\.channel))
      do {
        let offsets = try RigSkew.offsets(trace: files[member.entry.name] ?? "", channels: channels, starts: instants, window: window)
        boards.append(.init(name: member.entry.name, offsets: offsets))
      } catch {
        throw CLIError("rig measure: board \(member.entry.name): \(error)")
      }
    }
    let skew = RigSkew(boards: boards)
    print(RigSkewReport(skew: skew, rig: file.name, counts: counts, links: links).text(json: json))
    if skew.missed > 0 { throw CLIError("rig measure: \(skew.missed) of \(count) taps did not drive every board") }
  }
}
