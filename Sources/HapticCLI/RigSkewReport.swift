import Foundation
import HapticEngine
import HapticRig

/// `rig measure`'s table (or JSON): per board its onsets against the instants asked for, and the
/// skew across boards.
struct RigSkewReport {
  var skew: RigSkew
  var rig: String?
  /// Each board's engine report with its final status (late batches, underruns), by name.
  var counts: [String: HapticEngine.Report] = [:]
  /// Each board's link at the end (its clock fit's residual and query interval), by name.
  var links: [String: BoardLinkStatistics] = [:]

  func text(json: Bool) -> String {
    let skews = skew.skews
    func ms(_ value: Double?) -> JSONText { value.map { .fixed($0 * 1000, digits: 3) } ?? .null }
    if json {
      let boards = skew.boards.map { board -> JSONText in
        let values = board.offsets.compactMap { $0 }
        let report = counts[board.name]
        let residual: JSONText = links[board.name]?.clockResidual.map { .fixed($0 * 1e6, digits: 1) } ?? .null
        let rate: JSONText = links[board.name]?.clockQueryInterval.map { .fixed(1 / $0, digits: 1) } ?? .null
        let roundTrip: JSONText = links[board.name]?.clockRoundTrip.map { .fixed($0 * 1000, digits: 3) } ?? .null
        return .object([
          ("name", .string(board.name)), ("onsets", .int(values.count)),
          ("offset_p50_ms", ms(RigSkew.quantile(values, 0.5))), ("offset_min_ms", ms(values.min())),
          ("offset_max_ms", ms(values.max())),
          ("late_segments", report?.runLateSegments.map { .int($0) } ?? .null),
          ("underruns", report?.runUnderruns.map { .int($0) } ?? .null),
          ("clock_residual_us", residual), ("clock_round_trip_ms", roundTrip), ("clock_queries_per_s", rate),
        ])
      }
      return JSONText.object([
        ("rig", rig.map { .string($0) } ?? .null), ("taps", .int(skews.count + skew.missed)), ("missed", .int(skew.missed)),
        ("skew_p50_ms", ms(RigSkew.quantile(skews, 0.5))), ("skew_p99_ms", ms(RigSkew.quantile(skews, 0.99))),
        ("skew_max_ms", ms(skews.max())), ("boards", .array(boards)),
      ]).rendered
    }
    func text(_ value: Double?) -> String { value.map { Decimal6.string($0 * 1000, digits: 3) } ?? "—" }
    var lines = [
      "onsets against the instant asked, ms on the host clock; late batches and underruns from each board's final status;",
      "the clock fit's residual (µs) and clock queries a second at the end",
      "board        onsets   offset p50    min      max     late  underruns  residual  queries/s",
    ]
    for board in skew.boards {
      let values = board.offsets.compactMap { $0 }
      let name = board.name.padding(toLength: 12, withPad: " ", startingAt: 0)
      let report = counts[board.name]
      let late = report?.runLateSegments.map(String.init) ?? "?"
      let underruns = report?.runUnderruns.map(String.init) ?? "?"
      let residual = links[board.name]?.clockResidual.map { Decimal6.string($0 * 1e6, digits: 1) } ?? "—"
      let rate = links[board.name]?.clockQueryInterval.map { Decimal6.string(1 / $0, digits: 1) } ?? "—"
      lines.append(
        "\(name) \(String(values.count).leftPadded(6))   \(text(RigSkew.quantile(values, 0.5)).leftPadded(9)) "
          + "\(text(values.min()).leftPadded(8)) \(text(values.max()).leftPadded(8))"
          + "\(late.leftPadded(9)) \(underruns.leftPadded(10)) \(residual.leftPadded(9)) \(rate.leftPadded(10))")
    }
    lines.append(
      "skew across boards: p50 \(text(RigSkew.quantile(skews, 0.5))) ms, p99 \(text(RigSkew.quantile(skews, 0.99))) ms, "
        + "max \(text(skews.max())) ms over \(skews.count) taps" + (skew.missed > 0 ? " (\(skew.missed) missed)" : ""))
    return lines.joined(separator: "\n")
  }
}

extension String {
  /// The string right-aligned in `width` characters.
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
