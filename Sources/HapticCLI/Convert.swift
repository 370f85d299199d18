import ArgumentParser
import Foundation
import HapticAHAP
import HapticClip
import HapticCore

/// `hapticctl convert IN -o OUT [--to ahap|haptic|android-waveform|android-envelope] [--style plain|lofelt] [--json]`.
struct Convert: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert between AHAP, Meta Haptics Studio .haptic clips and Android vibration effects.",
    discussion: """
      The input is AHAP or a .haptic clip (a v0 .vij clip is upgraded), by --input-format, its \
      extension or its content. --to picks the output (default: from the output's extension, \
      .ahap or .json for AHAP, .haptic for a clip). ahap: --style plain (the default) keeps one \
      curve per parameter, --style lofelt reproduces Lofelt's converter (16-point curves, events \
      cut every 30 s, absolute control-point times: read them back with --absolute-curve-times). \
      haptic: amplitude and frequency envelopes and emphases (docs/semantics.md §17.2). \
      android-waveform: VibrationEffect.createWaveform timings (ms) and amplitudes (0-255); \
      android-envelope: Android 16 BasicEnvelopeBuilder control points; both as JSON with a \
      Kotlin line. Every loss is a warning on standard error ("lost at 1.5 s: ..."); --json \
      prints a summary with them. The output is written atomically: nothing is written when the \
      input does not load.
      """)

  @Argument(help: "The AHAP or .haptic file to convert.", completion: .file(extensions: ["ahap", "haptic", "vij", "json"]))
  var input: String

  @Option(name: [.short, .customLong("output")], help: "The file to write.")
  var output: String

  @Option(help: "Output format: ahap, haptic, android-waveform or android-envelope (default: from the output's extension).")
  var to: ConvertJob.Target?

  @Option(help: "AHAP output: plain (one curve per parameter) or lofelt (as Lofelt's converter writes it).")
  var style: ConvertJob.Style = .plain

  @OptionGroup var reading: AHAPReadingOptions

  @Flag(help: "Print a JSON summary.")
  var json = false

  func run() throws {
    if Self.sameFile(input, output) {
      throw CLIError("\(output) is the input file: convert writes a new file (choose another -o)")
    }
    let target = try to ?? Self.target(for: output)
    if style == .lofelt && target != .ahap {
      throw ValidationError("--style lofelt applies to AHAP output only (--to ahap)")
    }
    let reader = try reading.reader()
    let loaded: PatternFileReader.Loaded
    do {
      loaded = try reader.load(contentsOf: input)
    } catch {
      throw CLIError("cannot load \(input):\n" + error.errors.map { "  \($0)" }.joined(separator: "\n"))
    }
    let warnings: [AHAPDiagnostic]
    switch loaded {
    case .pattern(let document): warnings = document.warnings
    case .clip(let document): warnings = document.warnings
    }
    try reading.refuseWarnings(warnings, of: input, aside: "; nothing was written")
    for warning in warnings { printError("\(input): \(warning)") }
    let job = ConvertJob(loaded: loaded, target: target, style: style)
    let (bytes, notes) = try job.output(input: input)
    for note in notes { printError("\(input): warning: \(note)") }
    let sink = try OutputSink(path: output)
    try sink.write(bytes: bytes)
    try sink.commit()
    if json { print(summary(job, notes: notes, warnings: warnings).rendered) }
  }

  private func summary(_ job: ConvertJob, notes: [ClipConversion.Note], warnings: [AHAPDiagnostic]) -> JSONText {
    let from: String
    if case .clip = job.loaded { from = "haptic" } else { from = "ahap" }
    let pattern = job.pattern
    return JSONText.object([
      ("input", .string(input)), ("output", .string(output)), ("from", .string(from)), ("to", .string(job.target.rawValue)),
      ("style", .string(style.rawValue)), ("pattern_duration_s", .number(pattern.duration)),
      ("events", .int(pattern.events.count)), ("curves", .int(pattern.curves.count)),
      ("lossless", .bool(!notes.contains { $0.kind == .lost })),
      (
        "notes",
        .array(
          notes.map { note in
            .object([
              ("kind", .string(note.kind.rawValue)), ("time_s", note.time.map { .number($0) } ?? .null),
              ("end_s", note.end.map { .number($0) } ?? .null),
              ("message", .string(note.message)),
            ])
          })
      ),
      ("warnings", .array(warnings.map { .string($0.description) })),
    ])
  }

  /// Whether `a` and `b` name one file: the same path once links and `..` are resolved, or
  /// the same inode (a hard link). A missing `b` is another file.
  static func sameFile(_ a: String, _ b: String) -> Bool {
    let left = URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL.path
    let right = URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL.path
    if left == right { return true }
    var first = stat(), second = stat()
    guard stat(left, &first) == 0, stat(right, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }

  static func target(for path: String) throws -> ConvertJob.Target {
    let lowered = path.lowercased()
    if lowered.hasSuffix(".ahap") || lowered.hasSuffix(".json") { return .ahap }
    if lowered.hasSuffix(".haptic") { return .haptic }
    throw CLIError("\(path): say the output format with --to ahap|haptic|android-waveform|android-envelope (the extension does not name one)")
  }
}

extension ConvertJob.Target: ExpressibleByArgument {}
extension ConvertJob.Style: ExpressibleByArgument {}
