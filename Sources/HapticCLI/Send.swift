import ArgumentParser
import Foundation
import HapticAHAP
import HapticAudio
import HapticBoards
import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticWire

/// `hapticctl send (FILE | --channel LIST FILE… | --preset NAME | --rom N) (--port PATH [--baud N] | --sim [--board ID] |
/// --server URL [--board ID]) …`.
struct Send: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "send",
    abstract: "Play a pattern on a board (or the simulator) and wait until it finishes.",
    discussion: """
      Streams the pattern to the board a lookahead ahead of its clock (growing while the link \
      recovers from loss) and reports, at the end, the duration, frames, wire bytes, \
      retransmits, recoveries, underruns and late segments of this playback, the largest \
      lookahead and the largest onset error (--json: one object). On a terminal a progress bar runs on standard error. Ctrl-C or \
      SIGTERM stops the board before exiting (status 130).
      --live reads commands from standard input while playing, one per line: intensity X, \
      sharpness X, attack X, decay X, release X (dynamic parameters), pause, resume, seek S, \
      stop. End of input without stop lets the pattern finish.
      --channel LIST FILE plays FILE on those channels only (LIST: 0, or 0,1); repeat it to play \
      several files on several channels, started on the same board frame (send --channel 0 \
      A.ahap --channel 1 B.ahap). Without it a file plays on every channel.
      --server URL plays through a running hapticctl serve (its board stays open: no set-up, no \
      reset): FILE or --preset, with --board (the server's board id), --loop, --loop-end, \
      --rate, --seek, --at, --live and --json; Ctrl-C or the end of the command stops the \
      player on the server.
      """)

  @Argument(help: "The AHAP or .haptic file to play (on every channel).", completion: .file(extensions: ["ahap", "json", "haptic"]))
  var file: String?

  @Option(
    name: .customLong("channel"), parsing: .upToNextOption,
    help: ArgumentHelp("Play FILE on channels LIST only (0, or 0,1); repeatable.", valueName: "LIST FILE"))
  var channelPlays: [String] = []

  @Option(help: "Play a built-in preset instead of a file (hapticctl presets lists them).")
  var preset: String?

  @Option(parsing: .unconditional, help: "Intensity 0…1 of an impact preset.")
  var intensity: Double = 1

  @Option(parsing: .unconditional, help: "Play effect N of the driver's ROM library instead (DRV2605 boards).")
  var rom: Int?

  @Option(parsing: .unconditional, help: "ROM library for --rom (1–7).")
  var library: Int = 1

  @OptionGroup var connection: PortOptions

  @Flag(help: "Play on the in-process simulator.")
  var sim = false

  @Option(help: "Play through a running hapticctl serve at this URL (http://HOST:PORT) instead of opening the port.")
  var server: String?

  @Option(help: "Play on a rig's actuators (a rig file: its boards, their ports, the actuators on them; docs/rigs.md).")
  var rig: String?

  @Option(
    name: .customLong("actuator"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "With --rig: play PATTERN on this actuator or group (repeatable, all started on one instant); with FILE or --preset, just the names.",
      valueName: "NAME PATTERN"))
  var actuatorPlays: [String] = []

  @Option(help: "With --rig: play a rig timeline (which pattern on which actuators when; docs/rigs.md) instead of --actuator.")
  var timeline: String?

  @Option(help: "With --rig: when a board is lost, let the others play on (continue) or stop the rig (stop).")
  var onBoardLoss: BoardLossPolicy = .continue

  @Option(help: "The token of --server (when it was started with one).")
  var token: String?

  @Option(help: "Simulated board with --sim (any board: hapticctl boards list); with --server, the server's board (default: its only one).")
  var board = "sim-lra"

  @Flag(help: "Loop until stopped (Ctrl-C, or `stop` with --live).")
  var loop = false

  @Option(parsing: .unconditional, help: "Loop end in pattern seconds (0: the end of the last event).")
  var loopEnd: Double = 0

  @Option(parsing: .unconditional, help: "Playback rate (> 0).")
  var rate: Double = 1

  @Option(parsing: .unconditional, help: "Start this many seconds into the pattern.")
  var seek: Double = 0

  @Option(parsing: .unconditional, help: "Start this many seconds from now.")
  var at: Double = 0

  @Option(parsing: .unconditional, help: "Least lookahead in milliseconds (how far ahead of the board clock drive is queued).")
  var lookaheadMs: Double = 80

  @Option(parsing: .unconditional, help: "Most lookahead in milliseconds: it grows while the link recovers from loss (= --lookahead-ms: fixed).")
  var maxLookaheadMs: Double = 400

  @Option(help: "Write the pattern's audio to this WAV file (and FILE.onsets.csv) instead of playing it.")
  var audioOut: String?

  @Flag(help: "Do not play the pattern's audio events.")
  var noAudio = false

  @Option(help: "ALSA device for the pattern's audio.")
  var audioDevice = "default"

  @Flag(help: "Print the report as one JSON object.")
  var json = false

  @Flag(help: "Read control commands from standard input while playing.")
  var live = false

  @OptionGroup var reading: AHAPReadingOptions

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    if rig != nil { return try validateForRig() }
    if !actuatorPlays.isEmpty || timeline != nil { throw ValidationError("--actuator and --timeline need --rig FILE") }
    let sources = [file != nil, preset != nil, rom != nil, !channelPlays.isEmpty].filter { $0 }.count
    guard sources == 1 else { throw ValidationError("give exactly one of FILE, --channel LIST FILE, --preset NAME or --rom N") }
    _ = try channelFiles()
    guard [connection.port != nil, sim, server != nil].filter({ $0 }).count == 1 else {
      throw ValidationError("give exactly one of --port PATH, --sim or --server URL")
    }
    if server != nil { try validateForServer() }
    if let preset, HapticPresets.pattern(preset) == nil {
      let names = HapticPresets.all.map(\.name).joined(separator: ", ")
      throw ValidationError("unknown preset '\(preset)' (presets: \(names))")
    }
    if let rom, !(1...123).contains(rom) { throw ValidationError("--rom must be an effect number 1–123") }
    guard (1...7).contains(library) else { throw ValidationError("--library must be 1–7") }
    guard (0...1).contains(intensity) else { throw ValidationError("--intensity must be in 0…1") }
    guard rate > 0 && rate.isFinite else { throw ValidationError("--rate must be above 0") }
    guard seek >= 0 && at >= 0 && loopEnd >= 0 else { throw ValidationError("--seek, --at and --loop-end must be 0 or more") }
    guard (5...1000).contains(lookaheadMs) else { throw ValidationError("--lookahead-ms must be 5–1000") }
    guard (lookaheadMs...1000).contains(maxLookaheadMs) else {
      throw ValidationError("--max-lookahead-ms must be from --lookahead-ms (\(lookaheadMs)) to 1000")
    }
    if sim { _ = try PatternLoading.profile(board, boards: boardOptions) }
  }

  /// The `--channel LIST FILE` pairs: the channels (sorted, each once) and the file.
  func channelFiles() throws -> [(channels: [Int], file: String)] {
    guard channelPlays.count % 2 == 0 else {
      throw ValidationError("--channel takes a channel list and a file: --channel 0 A.ahap (or 0,1)")
    }
    return try stride(from: 0, to: channelPlays.count, by: 2).map { index in
      (try ChannelSelection.parse(channelPlays[index]), channelPlays[index + 1])
    }
  }

  /// What is played, for the report: the file, the preset, the ROM effect, or each channel's file.
  var source: String {
    if let file { return file }
    if let preset { return preset }
    if let rom { return "rom \(rom)" }
    let pairs = (try? channelFiles()) ?? []
    return pairs.map { "channel \($0.channels.map(String.init).joined(separator: ",")): \($0.file)" }.joined(separator: "; ")
  }

  func run() throws {
    if let server { return try runOnServer(server) }
    if let rig { return try runOnRig(rig) }
    var plays: [ChannelPlay] = []
    if let file {
      plays = [ChannelPlay(pattern: resolvingWaveforms(try PatternLoading.load(file, reading: reading).pattern, file: file))]
    } else if let preset, let pattern = HapticPresets.pattern(preset, intensity: intensity) {
      plays = [ChannelPlay(pattern: pattern)]
    }
    for (channels, file) in try channelFiles() {
      let pattern = try PatternLoading.load(file, reading: reading).pattern
      plays.append(ChannelPlay(pattern: resolvingWaveforms(pattern, file: file), channels: channels))
    }
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = lookaheadMs / 1000
    configuration.maximumLookahead = maxLookaheadMs / 1000
    let audio = try audioOutput(for: plays.map(\.pattern))
    configuration.audioOutput = audio
    let simulated = sim ? try PatternLoading.profile(board, boards: boardOptions) : nil
    let engine: HapticEngine
    do throws(HapticEngineError) {
      if let simulated {
        engine = try HapticEngine.simulated(profile: simulated, configuration: configuration, logsDrive: true)
      } else {
        // The board's own file (built-in or user) decides the profile it is rendered for, with
        // the f0 this physical board was calibrated to (kept on it, or on this host).
        let catalog = boardOptions.catalog()
        let store = CalibratedBoard.store(boardOptions)
        engine = try HapticEngine.serial(
          port: connection.port ?? "", rates: connection.rates(boardOptions), configuration: configuration,
          profileFor: { capabilities, identity in
            CalibratedBoard.resolve(capabilities, identity: identity, catalog: catalog, store: store).definition?.profile
          })
      }
    } catch {
      throw CLIError("cannot play on \(connection.port ?? board): \(error.message)")
    }
    let session = SendSession(engine: engine, options: self)
    let status = session.run(plays: plays)  // closes the engine
    do {
      try audio?.close()
    } catch {
      throw CLIError("cannot write the audio: \(error)")
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// Where the patterns' audio events play: nowhere with --no-audio or without audio events,
  /// the file of --audio-out, else the ALSA device (a warning and silence when it cannot open).
  private func audioOutput(for patterns: [HapticPattern]) throws -> (any AudioOutput)? {
    guard !noAudio, patterns.contains(where: { $0.events.contains { !$0.type.isHaptic } }) else { return nil }
    if let audioOut {
      let folder = URL(fileURLWithPath: audioOut).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw CLIError("cannot write \(audioOut): the folder \(folder) does not exist")
      }
      return AudioFileSink(path: audioOut) { AudioClock.now() }
    }
    do {
      return try ALSAOutput(device: audioDevice)
    } catch {
      printError("warning: \(error); the pattern's audio events are silent (--audio-out FILE writes them)")
      return nil
    }
  }

  /// The pattern with its waveform paths resolved beside its file (a warning for each one
  /// that is not there).
  private func resolvingWaveforms(_ pattern: HapticPattern, file: String) -> HapticPattern {
    guard !noAudio else { return pattern }
    let events = pattern.events.map { event -> HapticEvent in
      var event = event
      guard let path = event.waveformPath else { return event }
      do {
        let resolved = try WaveformPath.resolve(path, relativeTo: file)
        _ = try AudioFile.read(resolved)
        event.waveformPath = resolved
      } catch {
        printError("warning: \(file): AudioCustom at \(event.time) s: \(error); silent")
      }
      return event
    }
    return HapticPattern(
      version: pattern.version, metadata: pattern.metadata, events: events, parameters: pattern.parameters, curves: pattern.curves)
  }
}
