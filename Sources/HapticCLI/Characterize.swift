import ArgumentParser
import HapticRenderer
import HapticSimulator

/// `hapticctl characterize --board ID [--format table|json|svg] [-o OUT]`.
struct Characterize: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "characterize",
    abstract: "Measure a board's response map on its simulator: what intensity and sharpness feel like.",
    discussion: """
      Plays test patterns on the board's simulated actuator (physics at 16 kHz, deterministic) \
      and measures:
        steady level   a 0.4 s continuous event at intensity 0.05 … 1 (step 0.05)
                       and sharpness 0, 0.25, 0.5, 0.75, 1: the largest
                       |acceleration| over 0.25 … 0.35 s
        steps          levels at least 2.5 dB apart above the 0.026 G detection
                       threshold; the smallest and the 0.9 → 1 gain in dB; the
                       lowest intensity that is felt
        overshoot      the largest |acceleration| of the run over the steady level
                       (intensity 0.5 and 1), the rise to 90 % at intensity 1, and
                       the stop (event end → last |acceleration| at 0.026 G) at
                       intensity 1 and 0.5
        tilt           the spread of the intensity-1 level across sharpness, dB
        transients     a lone transient (intensity 1) at sharpness 0, 0.5, 1: peak,
                       rise, stop
        transient over continuous
                       a transient (1, 1) at 0.2 s over a continuous event (0.6, s):
                       its peak against the transient alone
      Formats: table (default), json, svg (intensity → acceleration in log G per sharpness, with \
      the detection threshold). Works for user board files (--boards-dir) too.
      """)

  /// Output formats.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case table, json, svg
  }

  @Option(help: "Board id (built-in or a user board file's).")
  var board: String

  @Option(help: "Output format: table, json or svg.")
  var format: Format = .table

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    _ = try PatternLoading.profile(board, boards: boardOptions)
  }

  func run() throws {
    let profile = try PatternLoading.profile(board, boards: boardOptions)
    let configuration = SimulatorConfiguration(profile: profile)
    if let problem = configuration.problem { throw CLIError("cannot characterize \(board): \(problem)") }
    let maps: [ChannelResponseMap]
    do {
      maps = try BoardCharacterization(configuration: configuration).measure()
    } catch {
      throw CLIError(error.description)
    }
    let report = CharacterizationReport(profile: profile, maps: maps)
    let sink = try OutputSink(path: output)
    switch format {
    case .table: try sink.write(report.table())
    case .json: try sink.write(report.json().rendered + "\n")
    case .svg: try sink.write(report.svg())
    }
    try sink.commit()
  }
}
