import Foundation

/// The plots the plot tests look at, and the patterns they are made from.
enum PlotFixtures {
  /// A failed `hapticctl` run.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// A two-channel board with an ERM on channel 0 and an LRA on channel 1.
  static let ermAndLRA = "uno-hbridge"

  /// The SVG that `hapticctl arguments` prints.
  static func svg(_ arguments: [String]) throws -> String {
    let result = try CLIRunner.run(arguments)
    guard result.status == 0, result.stdout.hasPrefix("<svg") else {
      throw Failure(description: "hapticctl \(arguments.joined(separator: " ")) → \(result.status): \(result.stderr)")
    }
    return result.stdout
  }

  /// The plots of every kind the text and style tests check: render on the ERM + LRA board and
  /// of continuous events, simulate on both boards, characterize; each named.
  static func everyKind(longName: String) throws -> [(name: String, svg: String)] {
    [
      ("render uno-hbridge", try svg(["render", longName, "--board", ermAndLRA, "--format", "svg"])),
      ("render envelopes", try svg(["render", "Examples/envelopes.ahap", "--board", "sim-lra", "--format", "svg"])),
      ("simulate sim-lra", try svg(["simulate", "Examples/tap.ahap", "--board", "sim-lra", "--format", "svg"])),
      ("simulate uno-hbridge", try svg(["simulate", longName, "--board", ermAndLRA, "--format", "svg"])),
      ("characterize", try svg(["characterize", "--board", ermAndLRA, "--format", "svg"])),
    ]
  }

  /// A copy of `Examples/pair-lra.ahap` whose file name is far too long for a title; remove
  /// `folder` after.
  static func longNamedCopy() throws -> (folder: URL, path: String) {
    let name = "a-pattern-with-a-very-long-descriptive-file-name-" + String(repeating: "that-goes-on-", count: 10) + "end.ahap"
    let contents = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Examples/pair-lra.ahap"), encoding: .utf8)
    return try CLIRunner.scratchFile(name, contents)
  }

  /// AHAP text with a transient (intensity 0.9, sharpness 0.5) every `spacing` seconds for
  /// `seconds` seconds.
  static func transients(every spacing: Double, for seconds: Double) -> String {
    let count = Int((seconds / spacing).rounded(.down))
    let events = (0..<count).map { index in
      """
      {"Event": {"Time": \(Double(index) * spacing), "EventType": "HapticTransient", "EventParameters": [\
      {"ParameterID": "HapticIntensity", "ParameterValue": 0.9}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
      """
    }
    return "{\"Version\": 1, \"Pattern\": [\n" + events.joined(separator: ",\n") + "\n]}\n"
  }

  /// Columns of `axes`' panel whose trace leaves the zero line (by more than 3 px), in runs:
  /// one run per burst of drive or vibration.
  static func bursts(in image: PNGImage, _ axes: FoundAxes, zeroRow: Int) -> (active: Int, runs: Int) {
    var active = 0
    var runs = 0
    var previous = false
    for x in (axes.left + 2)..<axes.right {
      let moving =
        image.count(x, axes.top, x + 1, zeroRow - 3, where: image.isColoured) > 0
        || image.count(x, zeroRow + 4, x + 1, axes.bottom, where: image.isColoured) > 0
      if moving { active += 1 }
      if moving && !previous { runs += 1 }
      previous = moving
    }
    return (active, runs)
  }
}
