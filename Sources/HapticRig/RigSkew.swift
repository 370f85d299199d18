import Foundation

/// Onsets read from simulated boards' traces on the host's clock, and the skew between boards
/// (`hapticctl rig measure`, the rig benchmarks; docs/rigs.md).
public struct RigSkew: Sendable {
  /// One board's onsets.
  public struct Board: Sendable {
    /// The rig's name for it.
    public var name: String
    /// For each start, the host time of the board's first driven trace row at or after the
    /// start's window, minus the start's host instant, seconds; nil when it did not drive in
    /// the window.
    public var offsets: [Double?]

    /// A board's onsets.
    public init(name: String, offsets: [Double?]) {
      self.name = name
      self.offsets = offsets
    }
  }

  /// The boards.
  public var boards: [Board]

  /// The skew of `boards`.
  public init(boards: [Board]) {
    self.boards = boards
  }

  /// Per start that every board drove: the latest onset less the earliest, seconds.
  public var skews: [Double] {
    guard let count = boards.first?.offsets.count else { return [] }
    return (0..<count).compactMap { index in
      let values = boards.compactMap { $0.offsets[index] }
      guard values.count == boards.count, let low = values.min(), let high = values.max() else { return nil }
      return high - low
    }
  }

  /// Starts at which some board did not drive.
  public var missed: Int { (boards.first?.offsets.count ?? 0) - skews.count }

  /// The `p`-quantile (0…1) of `values` (nearest rank), nil when empty.
  public static func quantile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// Reads the onsets of `channels` from the trace at `path` (`sim serve --trace FILE
  /// --trace-host-time`: `time_s,channel,drive,accel_g,host_s`): for each host instant in
  /// `starts`, the first row from `window` before it to `window` after it whose drive is not 0.
  ///
  /// - Throws: ``RigError`` `file` for a missing file or one without the `host_s` column.
  public static func offsets(trace path: String, channels: Set<Int>, starts: [Double], window: Double) throws(RigError) -> [Double?] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RigError(.file, "cannot read the trace \(path)")
    }
    var offsets = [Double?](repeating: nil, count: starts.count)
    var next = 0
    var header = true
    var lineNumber = 0
    for line in data.split(separator: UInt8(ascii: "\n")) {
      lineNumber += 1
      if header {
        guard String(decoding: line, as: UTF8.self) == "time_s,channel,drive,accel_g,host_s" else {
          throw RigError(.file, "\(path): not a trace with host times (sim serve --trace FILE --trace-host-time)")
        }
        header = false
        continue
      }
      guard next < starts.count else { break }
      let fields = line.split(separator: UInt8(ascii: ","))
      guard fields.count == 5, let channel = Int(String(decoding: fields[1], as: UTF8.self)),
        let drive = Double(String(decoding: fields[2], as: UTF8.self)), let host = Double(String(decoding: fields[4], as: UTF8.self))
      else { throw RigError(.file, "\(path): line \(lineNumber) is not a trace row") }
      while next < starts.count && host > starts[next] + window { next += 1 }
      guard next < starts.count, host >= starts[next] - window, drive != 0, channels.contains(channel) else { continue }
      offsets[next] = host - starts[next]
      next += 1
    }
    return offsets
  }
}
