import ArgumentParser
import Foundation
import HapticEngine
import HapticRig
import HapticRenderer
import HapticWire

/// `hapticctl rig probe FILE [--json]`: opens every board of a rig and reports each one's board,
/// link and clock.
struct RigProbe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "probe", abstract: "Open every board of a rig and report its health and clock.",
    discussion: """
      Opens the boards in parallel, syncs each one's clock and prints, per board: its board id \
      and channels, the link's round trip, the board clock's drift against the host's, the \
      clock-sync uncertainty (what an onset on it may be off by) and the actuators on it. Exit 1 \
      naming the board when one cannot be opened or is not the board its entry says.
      """)

  @OptionGroup var options: RigOptions

  @Flag(help: "Print one JSON object.")
  var json = false

  @Option(parsing: .unconditional, help: "Seconds of clock sync before reporting (the drift needs a few).")
  var settle: Double = 1

  func validate() throws {
    guard settle >= 0 && settle <= 60 else { throw ValidationError("--settle must be 0–60 seconds") }
  }

  func run() throws {
    let file = try options.load()
    let rig = try RigOptions.open(file, boards: options.boardOptions)
    defer { rig.close() }
    if settle > 0 { usleep(UInt32(settle * 1_000_000)) }
    var rows: [JSONText] = []
    for member in rig.members {
      let statistics = member.engine.link.statistics
      let capabilities = member.engine.capabilities
      let actuators = file.actuators.filter { $0.board == member.entry.name }
      if json {
        rows.append(
          .object([
            ("name", .string(member.entry.name)), ("port", .string(member.entry.port)),
            ("board", .string(capabilities.boardID)), ("channels", .int(member.engine.profile.channels.count)),
            ("round_trip_ms", statistics.roundTrip.map { .fixed($0 * 1000, digits: 3) } ?? .null),
            ("drift_ppm", statistics.driftPPM.map { .fixed($0, digits: 2) } ?? .null),
            ("clock_uncertainty_us", .fixed(member.engine.link.clockUncertainty * 1e6, digits: 1)),
            ("actuators", .array(actuators.map { .object([("name", .string($0.name)), ("channel", .int($0.channel))]) })),
          ]))
      } else {
        let rtt = statistics.roundTrip.map { Decimal6.string($0 * 1000, digits: 2) + " ms" } ?? "?"
        let drift = statistics.driftPPM.map { Decimal6.string($0, digits: 1) + " ppm" } ?? "?"
        let uncertainty = Decimal6.string(member.engine.link.clockUncertainty * 1e6, digits: 0) + " µs"
        print(
          "\(member.entry.name): \(capabilities.boardID) on \(member.entry.port), \(member.engine.profile.channels.count) channels; "
            + "round trip \(rtt), drift \(drift), clock ±\(uncertainty); actuators: "
            + actuators.map { "\($0.name)=\($0.channel)" }.joined(separator: ", "))
      }
    }
    if json {
      print(JSONText.object([("rig", file.name.map { .string($0) } ?? .null), ("boards", .array(rows))]).rendered)
    }
  }
}
