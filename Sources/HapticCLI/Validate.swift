import ArgumentParser
import Foundation
import HapticAHAP
import HapticClip
import HapticCore

/// `hapticctl validate FILE... [--json]`: loads each AHAP file and reports what it found.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check AHAP and .haptic files: load each one and print its warnings and errors.",
    discussion: """
      Exit status: 0 when every file loads (warnings allowed), 1 when any file fails.
      With --json, one JSON object per file, one per line, with the keys file, ok, warnings, \
      errors (each with code, appleCode, severity, path, message, line, column), events, parameters, \
      curves and pattern_duration_s (the end of the last event, Apple's pattern duration).
      """)

  @Argument(help: "AHAP or .haptic files to check.", completion: .file(extensions: ["ahap", "json", "haptic"]))
  var files: [String]

  @Flag(help: "Print one JSON object per file instead of text.")
  var json = false

  @OptionGroup var reading: AHAPReadingOptions

  func run() throws {
    let reader = try reading.reader()
    var failed = 0
    for file in files {
      let report = ValidationReport(file: file, reader: reader, strict: reading.strict)
      if !report.ok { failed += 1 }
      if json {
        print(try report.jsonLine())
      } else {
        print(report.text())
      }
    }
    if !json && files.count > 1 {
      print("\(files.count - failed) of \(files.count) files loaded" + (failed > 0 ? ", \(failed) failed" : ""))
    }
    if failed > 0 { throw ExitCode(1) }
  }
}

/// Options shared by every command that reads pattern files.
struct AHAPReadingOptions: ParsableArguments {
  @Flag(help: "Read curve control-point times as absolute pattern times (Lofelt/Meta exports).")
  var absoluteCurveTimes = false

  @Option(
    help: ArgumentHelp(
      "Read pattern files as ahap or haptic (default: by extension — .haptic and .vij are clips, .ahap is AHAP — else by content)."))
  var inputFormat: InputFormat?

  @Option(parsing: .unconditional, help: "Refuse AHAP files larger than this many MiB.")
  var maxFileSize: Double = 64

  @Flag(
    help: ArgumentHelp(
      "Refuse what Apple's and Meta's own tools refuse: every warning (a value clamped, a default applied, an unknown key, a clip Meta's validator rejects) fails the file."))
  var strict = false

  /// Under `--strict`, fails `file` when it has `warnings`, listing them as errors (`aside`:
  /// what the command adds, e.g. "; nothing was written").
  func refuseWarnings(_ warnings: [AHAPDiagnostic], of file: String, aside: String = "") throws {
    guard strict, !warnings.isEmpty else { return }
    throw CLIError(
      "cannot load \(file) (--strict)\(aside):\n" + Self.asErrors(warnings).map { "  \($0)" }.joined(separator: "\n"))
  }

  /// `warnings` as the errors `--strict` makes of them.
  static func asErrors(_ warnings: [AHAPDiagnostic]) -> [AHAPDiagnostic] {
    warnings.map { warning in
      var error = warning
      error.severity = .error
      error.message += " (an error with --strict)"
      return error
    }
  }

  func readOptions() throws -> AHAPReadOptions {
    guard maxFileSize > 0, maxFileSize.isFinite, maxFileSize <= 4096 else {
      throw ValidationError("--max-file-size must be between 0 and 4096 MiB, got \(maxFileSize)")
    }
    return AHAPReadOptions(
      maxFileSize: Int(maxFileSize * 1_048_576),
      controlPointTimes: absoluteCurveTimes ? .absolute : .relative)
  }

  /// The reader these options ask for.
  func reader() throws -> PatternFileReader {
    PatternFileReader(options: try readOptions(), format: inputFormat?.format)
  }
}

/// `--input-format`: the pattern formats (``PatternFormat``) as a command-line value.
enum InputFormat: String, ExpressibleByArgument, CaseIterable {
  case ahap, haptic

  var format: PatternFormat {
    switch self {
    case .ahap: .ahap
    case .haptic: .haptic
    }
  }
}
