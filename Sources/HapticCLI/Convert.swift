import ArgumentParser
import Foundation
import HapticAHAP
import HapticClip
import HapticCore

/// `hapticctl convert IN -o OUT [--to ahap] [--style plain|lofelt] [--json]`.
struct Convert: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Convert a Meta Haptics Studio / Lofelt .haptic clip to AHAP.",
    discussion: """
      .haptic → AHAP maps the clip as docs/semantics.md §17 says. --style plain (the default) \
      keeps one curve per parameter and one continuous event; --style lofelt reproduces Lofelt's \
      converter: 16-point curves (Core Haptics' limit), continuous events cut every 30 s (its \
      cap), control-point times absolute (read such files with --absolute-curve-times). The \
      output is written atomically: nothing is written when the input does not load. Other \
      directions (AHAP → .haptic, Android waveforms) are not built yet and are refused.
      """)

  enum Target: String, ExpressibleByArgument, CaseIterable {
    case ahap
  }

  enum Style: String, ExpressibleByArgument, CaseIterable {
    case plain, lofelt
  }

  @Argument(help: "The .haptic file to convert.", completion: .file(extensions: ["haptic"]))
  var input: String

  @Option(name: [.short, .customLong("output")], help: "The file to write.")
  var output: String

  @Option(help: "Output format (default: from the output's extension).")
  var to: Target?

  @Option(help: "plain: one curve per parameter; lofelt: as Lofelt's converter writes it.")
  var style: Style = .plain

  @Flag(help: "Print a JSON summary.")
  var json = false

  func run() throws {
    guard PatternFileReader.isClip(input) else {
      throw CLIError("cannot convert \(input): only .haptic → AHAP is built so far (AHAP → .haptic and Android are not)")
    }
    let target = try to ?? Self.target(for: output)
    let document: HapticClipDocument
    do {
      document = try HapticClipReader().read(contentsOf: input)
    } catch {
      throw CLIError("cannot load \(input):\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
    }
    for warning in document.warnings { printError("\(input): \(warning)") }
    let bytes: [UInt8]
    switch (target, style) {
    case (.ahap, .plain): bytes = AHAPWriter(indent: 2).bytes(document.clip.pattern())
    case (.ahap, .lofelt): bytes = LofeltAHAPWriter().bytes(document.clip)
    }
    let sink = try OutputSink(path: output)
    try sink.write(bytes: bytes)
    try sink.commit()
    if json {
      let pattern = document.clip.pattern()
      print(
        JSONText.object([
          ("input", .string(input)), ("output", .string(output)), ("to", .string(target.rawValue)),
          ("style", .string(style.rawValue)), ("duration_s", .number(document.clip.duration)),
          ("events", .int(pattern.events.count)), ("curves", .int(pattern.curves.count)),
          ("emphases", .int(document.clip.amplitude.filter { $0.emphasis != nil }.count)),
          ("warnings", .array(document.warnings.map { .string($0.description) })),
        ]).rendered)
    }
  }

  static func target(for path: String) throws -> Target {
    let lowered = path.lowercased()
    if lowered.hasSuffix(".ahap") || lowered.hasSuffix(".json") { return .ahap }
    throw CLIError("\(path): say the output format with --to ahap (the extension does not name one)")
  }
}
