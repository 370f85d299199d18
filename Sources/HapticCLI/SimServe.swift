import ArgumentParser
import Foundation
import HapticRenderer
import HapticSimulator
import HapticTransport

/// `hapticctl sim`: the board simulator's commands.
struct Sim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sim", abstract: "Run the board simulator.", subcommands: [SimServe.self])
}

/// `hapticctl sim serve [--board ID] [--link PATH] [--no-actuator] [--drift-ppm N] [--drop P]
/// [--corrupt P] …`.
struct SimServe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve a simulated board on a pseudo-terminal until terminated.",
    discussion: """
      Opens a pseudo-terminal and prints its path alone on the first line of standard output; \
      `hapticctl probe --port PATH` and `hapticctl send FILE --port PATH` then talk to the \
      simulated board through the real serial code path. The board runs in real time (its \
      physics at a fixed step), speaks docs/protocol.md and stops its drive on the watchdog. \
      Ctrl-C or SIGTERM ends it (the --link symlink is removed).
      """)

  @Option(
    help: ArgumentHelp(
      "The board to simulate: any board id (built in: \(BoardProfile.builtIn.map(\.id).joined(separator: ", ")); hapticctl boards list shows user boards too)."))
  var board = "sim-lra"

  @Option(help: "Also make this symbolic link point at the pseudo-terminal.")
  var link: String?

  @Flag(help: "Report no actuator (haptics unsupported).")
  var noActuator = false

  @Option(parsing: .unconditional, help: "Board clock error in parts per million.")
  var driftPPM = 0.0

  @Option(parsing: .unconditional, help: "Board clock reading at start, seconds.")
  var clockOffset = 0.0

  @Option(parsing: .unconditional, help: "Probability that a byte is lost, each direction (0…1).")
  var drop = 0.0

  @Option(parsing: .unconditional, help: "Probability that a byte is corrupted, each direction (0…1).")
  var corrupt = 0.0

  @Option(parsing: .unconditional, help: "Extra one-way delay in each direction, milliseconds, as a network adds: bytes reach the board this much later, replies leave this much later.")
  var delayMs = 0.0

  @Option(parsing: .unconditional, help: "Each piece's delay drawn from --delay-ms ± this, milliseconds (in order, as TCP keeps it).")
  var jitterMs = 0.0

  @Option(parsing: .unconditional, help: "Watchdog timeout at boot, milliseconds (10–5000).")
  var watchdogMs = 100

  @Option(help: "The LRAs' real resonance, Hz, off their board file's f0 (what calibrate measures).")
  var actualF0: Double?

  @Option(parsing: .unconditional, help: "Simulate an unplugged cable this many seconds after start.")
  var disconnectAt: Double?

  @Option(parsing: .unconditional, help: "Simulate a board reset (brown-out) this many seconds after start.")
  var resetAt: Double?

  @Option(parsing: .unconditional, help: "Simulate a board reset every this many seconds (after --reset-at, or from the start).")
  var resetEvery: Double?

  @Option(help: "Seed of the fault generator.")
  var seed: UInt64 = 1

  @Option(help: "The serial the board keeps (8 hex digits, not 0), as if a host had assigned one; default none.")
  var serial: String?

  @OptionGroup var traceOptions: TraceOptions

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    _ = try PatternLoading.profile(board, boards: boardOptions)
    guard (0...1).contains(drop), (0...1).contains(corrupt) else {
      throw ValidationError("--drop and --corrupt are probabilities in 0…1")
    }
    guard (10...5000).contains(watchdogMs) else { throw ValidationError("--watchdog-ms must be 10–5000") }
    guard abs(driftPPM) <= 10_000 else { throw ValidationError("--drift-ppm must be within ±10000") }
    guard delayMs >= 0 && delayMs <= 10_000 else { throw ValidationError("--delay-ms must be 0–10000") }
    guard jitterMs >= 0 && jitterMs <= 10_000 else { throw ValidationError("--jitter-ms must be 0–10000") }
    if let actualF0, !(actualF0 >= 40 && actualF0 <= 1000) { throw ValidationError("--actual-f0 must be 40–1000 Hz") }
    if let resetAt, !(resetAt >= 0 && resetAt.isFinite) { throw ValidationError("--reset-at must be a time ≥ 0") }
    if let resetEvery, !(resetEvery >= 0.1 && resetEvery <= 86_400) {
      throw ValidationError("--reset-every must be 0.1–86400 seconds")
    }
    if let serial, Self.serialValue(serial) == nil {
      throw ValidationError("--serial \(serial): give 1 to 8 hex digits, not all 0 (e.g. 1A2B3C4D)")
    }
  }

  /// `text` as a board serial: 1–8 hex digits, not 0.
  static func serialValue(_ text: String) -> UInt32? {
    guard (1...8).contains(text.count), let value = UInt32(text, radix: 16), value != 0 else { return nil }
    return value
  }

  func run() throws {
    var configuration = SimulatorConfiguration(profile: try PatternLoading.profile(board, boards: boardOptions))
    configuration.noActuator = noActuator
    configuration.driftPPM = driftPPM
    configuration.clockOffset = clockOffset
    configuration.watchdog = Double(watchdogMs) / 1000
    configuration.serial = serial.flatMap(Self.serialValue) ?? 0
    // Every start is a boot; a real board's boot count (kept in EEPROM) differs from its last
    // one, and so does its session id (docs/protocol.md §4.1). A simulator keeps nothing between
    // runs, so it starts at a random count: a host still following the previous run's session
    // would otherwise take the new SYN for a retransmission of the old one (issue 31 point 7).
    configuration.bootCount = UInt16.random(in: 1...UInt16.max)
    if let actualF0 {
      // The actuators resonate there (the physics and the driver's calibration), while the
      // board announces and the renderer plans with its board file's f0.
      for index in configuration.actuators.indices where configuration.actuators[index].kind == .lra {
        configuration.actuators[index].resonantFrequency = actualF0
      }
    }
    if let problem = configuration.problem { throw CLIError("cannot simulate \(board): \(problem)") }
    var faults = SimulatorServer.Faults()
    faults.dropRate = drop
    faults.corruptRate = corrupt
    faults.delay = delayMs / 1000
    faults.jitter = jitterMs / 1000
    faults.disconnectAt = disconnectAt
    faults.resetAt = resetAt
    faults.resetInterval = resetEvery
    faults.seed = seed

    try traceOptions.checkFolder()
    let terminal: PseudoTerminal
    do {
      terminal = try PseudoTerminal()
      if let link { try terminal.link(at: link) }
    } catch {
      throw CLIError(error.description)
    }
    // Created once the board can start: a failed start leaves no trace files behind.
    let traceFile: BoardTraceFile?
    do {
      traceFile = try traceOptions.file(physicsRate: configuration.physicsRate)
    } catch {
      if let link { unlink(link) }
      throw error
    }
    let server = SimulatorServer(
      board: SimulatedBoard(configuration: configuration), transport: terminal.boardSide, faults: faults,
      waitsForClients: true, trace: traceFile)
    // Stop on SIGINT/SIGTERM: the handlers only ask the loop to end; it stops the drive itself.
    let signals = SignalWatch([SIGINT, SIGTERM]) { _ in server.stop() }
    print(terminal.path)
    fflush(nil)
    printError("simulated \(board) board on \(terminal.path)\(link.map { " (link \($0))" } ?? ""); Ctrl-C ends it")
    let report = server.run()
    signals.cancel()
    if let link { unlink(link) }
    terminal.boardSide.close()
    printError(
      "simulator stopped: \(report.ended); \(report.bytesIn) bytes in, \(report.bytesOut) out, \(report.overruns) overruns")
    if let failure = traceFile?.failure { throw failure }
  }
}
