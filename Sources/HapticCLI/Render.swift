import ArgumentParser
import HapticAHAP
import HapticCore
import HapticRenderer

/// `hapticctl render FILE --board ID [--format csv|json|svg|stats] [-o OUT] [--from S --to S]`.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Compile an AHAP pattern into drive frames and segments for a board.",
    discussion: """
      Formats:
        csv    one row per frame per channel: time_s,channel,amplitude,frequency_hz
               (amplitude -1…1 of full-scale drive, negative = braking; 0 Hz when
               the board has no frequency control)
        json   the segment stream per channel (what goes on the wire) plus the stats
        svg    per channel: amplitude over time, the drive frequency under it on
               channels with frequency control (none on an ERM), the pattern's
               events marked above (hover: type, time, duration, intensity,
               sharpness); --from S --to S plots that window of pattern time only,
               at full resolution (the other formats are always whole and refuse
               --from/--to)
        stats  one JSON object: pattern_duration_s (Apple's: the last event's end),
               drive_duration_s (until the drive is at rest), frames, segments,
               wire_bytes and more
      Built-in boards: \(BoardProfile.builtIn.map(\.id).joined(separator: ", ")).
      """)

  /// Output formats.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case csv, json, svg, stats
  }

  @Argument(help: "The pattern file to render (AHAP or .haptic).", completion: .file(extensions: ["ahap", "json", "haptic"]))
  var file: String

  @Option(name: .long, help: "Board profile id.")
  var board: String

  @Option(name: .long, help: "Output format: csv, json, svg or stats.")
  var format: Format = .stats

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  /// `--intensity-mapping` values.
  enum Mapping: String, ExpressibleByArgument, CaseIterable {
    case sensationLevel = "sensation-level"
    case square

    var mapping: IntensityMapping { self == .square ? .square : .sensationLevel }
  }

  @Option(help: "Intensity mapping: sensation-level (Android 16) or square (Lofelt). A .haptic clip always plays by the square law (its amplitudes are linear).")
  var intensityMapping: Mapping = .sensationLevel

  @OptionGroup var reading: AHAPReadingOptions

  @OptionGroup var channelSelection: ChannelSelection

  @OptionGroup var boardOptions: BoardOptions

  @OptionGroup var window: PlotWindowOptions

  func validate() throws {
    try window.validate(isSVG: format == .svg)
    _ = try PatternLoading.profile(board, boards: boardOptions)
  }

  func run() throws {
    let profile = try PatternLoading.profile(board, boards: boardOptions)
    let pattern = try PatternLoading.load(file, reading: reading).pattern
    let options = RenderOptions(intensityMapping: intensityMapping.mapping)
    // Validate the render up front so no output file is created for an unusable board.
    do {
      _ = try FrameRenderer(pattern: pattern, profile: profile, options: options)
    } catch {
      throw CLIError(error.description)
    }
    let sink = try OutputSink(path: output)
    let job = RenderJob(
      pattern: pattern, profile: profile, options: options, source: file, playsOn: try channelSelection.channels(on: profile))
    switch format {
    case .csv: try job.writeCSV(to: sink)
    case .json: try job.writeJSON(to: sink)
    case .svg: try job.writeSVG(to: sink, window: window)
    case .stats: try job.writeStats(to: sink)
    }
    try sink.commit()
  }
}
