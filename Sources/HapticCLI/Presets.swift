import ArgumentParser
import Foundation
import HapticEngine

/// `hapticctl presets [--json]`.
struct Presets: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "List the built-in feedback presets (hapticctl send --preset NAME).")

  @Flag(help: "Print one JSON object per preset.")
  var json = false

  func run() throws {
    for preset in HapticPresets.all {
      if json {
        print(
          JSONText.object([
            ("name", .string(preset.name)), ("summary", .string(preset.summary)),
            ("takes_intensity", .bool(preset.takesIntensity)),
          ]).rendered)
      } else {
        let padded = preset.name.padding(toLength: 15, withPad: " ", startingAt: 0)
        print("\(padded) \(preset.summary)")
      }
    }
  }
}
