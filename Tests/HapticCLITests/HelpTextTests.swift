import ArgumentParser
import Testing

@testable import HapticCLI

/// Issue 32, point 8: help text that wraps mid-phrase. argument-parser re-wraps any line of a
/// command's discussion longer than the screen (80 columns) back to column 0, so an indented
/// list entry (`  steps   levels at least 2.5 dB apart …`) continued on the next line lost its
/// indent and read as a new paragraph. Every indented line must fit, continuing on lines of its
/// own with the entry's indent.
@Suite("Help text")
struct HelpTextTests {
  /// Every command and subcommand, with its full name.
  static func commands(_ command: any ParsableCommand.Type = Hapticctl.self, prefix: String = "") -> [(String, any ParsableCommand.Type)] {
    let name = prefix.isEmpty ? (command.configuration.commandName ?? "hapticctl") : prefix + " " + (command.configuration.commandName ?? "?")
    return [(name, command)] + command.configuration.subcommands.flatMap { commands($0, prefix: name) }
  }

  @Test("No indented help line is longer than 80 columns (argument-parser would wrap it to column 0)")
  func indentedLinesFit() {
    let all = Self.commands()
    #expect(all.count >= 17, "every subcommand found: \(all.map(\.0))")
    var offenders: [String] = []
    for (name, command) in all {
      for line in command.configuration.discussion.split(separator: "\n", omittingEmptySubsequences: true)
      where line.first == " " && line.count > 80 {
        offenders.append("\(name): \(line.count) columns: \(line)")
      }
    }
    #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
  }
}
