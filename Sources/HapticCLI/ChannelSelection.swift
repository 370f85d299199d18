import ArgumentParser
import HapticRenderer

/// `--channel LIST` of `render` and `simulate`: the channels a pattern plays on (docs/semantics.md
/// §13.6); the board's other channels stay silent. Every channel when absent.
struct ChannelSelection: ParsableArguments {
  @Option(name: .customLong("channel"), help: ArgumentHelp("Play on these channels only (0, or 0,1).", valueName: "LIST"))
  var list: String?

  /// The channels chosen on `profile` (sorted, each once), or nil for all.
  /// - Throws: a usage error naming a channel the board does not have, or a malformed list.
  func channels(on profile: BoardProfile) throws -> [Int]? {
    guard let list else { return nil }
    let channels = try Self.parse(list)
    if let missing = channels.first(where: { !profile.channels.indices.contains($0) }) {
      throw ValidationError("--channel \(list): \(profile.id) has no channel \(missing) (it has \(profile.channels.count): 0…\(profile.channels.count - 1))")
    }
    return channels
  }

  /// A channel list (`0`, `0,1`): sorted, each once.
  /// - Throws: a usage error for anything but comma-separated whole numbers ≥ 0.
  static func parse(_ list: String) throws -> [Int] {
    let parsed = list.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard parsed.allSatisfy({ ($0 ?? -1) >= 0 }) else {
      throw ValidationError("--channel \(list): expected channel numbers such as 0 or 0,1")
    }
    return Array(Set(parsed.compactMap { $0 })).sorted()
  }
}
