import ArgumentParser
import Foundation
import HapticAHAP
import HapticAudio
import HapticCore
import HapticRenderer
import HapticSimulator

/// `hapticctl simulate FILE --board ID [--format csv|wav|svg|summary] [-o OUT] [--audio OUT.wav]
/// [--from S --to S]`.
struct Simulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Play a pattern on a simulated board and report what the actuator does.",
    discussion: """
      Renders the pattern for the board, drives the board's simulated actuator (an LRA as a \
      driven damped mass-spring, an ERM as a first-order motor) at a fixed physics rate on a \
      virtual clock, and runs on until the actuator is at rest. Deterministic.
      Formats:
        summary  JSON: pattern_duration_s (Apple's: the last event's end),
                 drive_duration_s (until the drive is at rest, as render's),
                 simulated_s (with the ring-down); per channel peak_g, rms_g,
                 rise_ms (drive start → envelope at 90 % of its peak), stop_ms
                 (drive end → envelope below 0.026 G)
        csv      one row per physics step per channel: time_s,channel,drive,accel_g
        wav      acceleration as 16-bit audio at the physics rate, one channel per
                 actuator (full scale ±4 G)
        svg      per channel: drive and acceleration over time, each with its time
                 axis; --from S --to S plots that window of pattern time only, at
                 full resolution (the other formats are always whole and refuse
                 --from/--to)
      --audio OUT.wav mixes the pattern's audio events (AudioCustom files, resolved next to the \
      AHAP file; AudioContinuous tones) into a 48 kHz mono WAV aligned with the haptic timeline.
      """)

  /// Output formats.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case summary, csv, wav, svg
  }

  @Argument(help: "The pattern file to simulate (AHAP or .haptic).", completion: .file(extensions: ["ahap", "json", "haptic"]))
  var file: String

  @Option(help: "Board profile id.")
  var board: String

  @Option(help: "Output format: summary, csv, wav or svg.")
  var format: Format = .summary

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  @Option(help: "Also write the pattern's audio events to this WAV file.")
  var audio: String?

  @Option(parsing: .unconditional, help: "Physics steps per second (at least 16 × the highest drive frequency).")
  var physicsRate: Double = 16_000

  @OptionGroup var reading: AHAPReadingOptions

  @OptionGroup var channelSelection: ChannelSelection

  @OptionGroup var boardOptions: BoardOptions

  @OptionGroup var window: PlotWindowOptions

  func validate() throws {
    try window.validate(isSVG: format == .svg)
    _ = try PatternLoading.profile(board, boards: boardOptions)
    if format == .wav && output == nil && isatty(STDOUT_FILENO) == 1 {
      throw ValidationError("--format wav writes binary audio: give -o FILE or redirect standard output")
    }
  }

  func run() throws {
    let profile = try PatternLoading.profile(board, boards: boardOptions)
    let pattern = try PatternLoading.load(file, reading: reading).pattern
    var configuration = SimulatorConfiguration(profile: profile)
    configuration.physicsRate = physicsRate
    if let problem = configuration.problem { throw CLIError("cannot simulate on \(board): \(problem)") }
    let channels = try channelSelection.channels(on: profile)
    let simulation: PatternSimulation
    do {
      simulation = try PatternSimulation(pattern: pattern, configuration: configuration, channels: channels)
    } catch {
      throw CLIError(error.description)
    }
    let job = SimulationJob(simulation: simulation, source: file, patternDuration: pattern.duration)
    // Both outputs are prepared before either is committed, so a failure leaves neither.
    let sink = try OutputSink(path: output)
    let duration: Double
    switch format {
    case .summary: duration = try job.writeSummary(to: sink)
    case .csv: duration = try job.writeCSV(to: sink)
    case .wav: duration = try job.writeWAV(to: sink)
    case .svg: duration = try job.writeSVG(to: sink, window: window)
    }
    var audioSink: OutputSink?
    if let audio {
      audioSink = try writeAudio(pattern, duration: duration, to: audio)
    }
    try sink.commit()
    try audioSink?.commit()
  }

  /// Mixes the audio events; missing or unreadable audio files are warnings.
  private func writeAudio(_ pattern: HapticPattern, duration: Double, to path: String) throws -> OutputSink {
    let renderer = AudioRenderer()
    let source = file
    let (samples, warnings) = renderer.render(pattern, minimumDuration: duration) { waveform in
      let resolved: String
      do {
        resolved = try WaveformPath.resolve(waveform, relativeTo: source)
      } catch {
        throw CLIError((error as? AHAPDiagnostic)?.message ?? "\(error)")
      }
      do {
        return try AudioFile.read(resolved)
      } catch {
        throw CLIError("\(waveform): \((error as? AudioFileError)?.message ?? "\(error)")")
      }
    }
    for warning in warnings { printError("warning: \(file): \(warning)") }
    let sink = try OutputSink(path: path)
    try sink.write(bytes: WAVFile.encode(channels: [samples], sampleRate: Int(renderer.sampleRate)))
    return sink
  }
}
