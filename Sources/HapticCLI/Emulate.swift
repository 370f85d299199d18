import ArgumentParser
import Foundation
import HapticBoards
import HapticSimulator

/// `hapticctl emulate [--board ID] [--link PATH] [--blank] [--no-auto-reset] [--no-chip]
/// [--lra-f0 HZ] [--trace FILE.csv [--trace-rate HZ]]`.
struct Emulate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "emulate",
    abstract: "Run a board's real firmware on its emulator, on a pseudo-terminal, until terminated.",
    discussion: """
      Builds the board's firmware and emulator when they are missing or older than their \
      sources (the board file's firmware and emulator sections: uno-drv2605l and uno-hbridge \
      run their ATmega328P firmware on simavr, with a modelled DRV2605L or a DRV8833 bridge \
      whose PWM inputs are recorded), starts it and prints the \
      pseudo-terminal's path as the first line on standard output, like `sim serve`: `probe`, \
      `send` and the engine talk to it as to a board on a USB port. Ctrl-C or SIGTERM ends it; \
      SIGUSR1 power-cycles the board. The sources and prebuilt images are found as for \
      `flash` (a checkout's Boards/, or PREFIX/share/hapticctl/Boards as installed by \
      Scripts/install.sh).

      A board with a bootloader (the Uno's Optiboot) behaves like the real one: every open of \
      the port resets it (the USB serial chip's DTR through a capacitor), the bootloader listens \
      for avrdude before the firmware starts (--no-auto-reset: a board with auto-reset \
      disabled), and --blank starts it with the bootloader only: it runs nothing until \
      `hapticctl flash --port PTY` writes the firmware through the bootloader.

      --trace writes what the board did in `sim serve --trace`'s format: FILE.csv gets \
      time_s,channel,drive,accel_g (the driver's output through the actuator physics: the \
      DRV2605L's from the firmware's register writes; each H-bridge's from its PWM inputs, \
      for an LRA the synthesized carrier itself), FILE.events.csv the firmware's events (reset, \
      watchdog_stop, underrun, late_batch, bad_frames, link_lost) and the chip's (rom_effect, \
      calibration), on the board's simulated time line.
      """)

  @Option(help: "The board to emulate (one with an emulator section in its board file).")
  var board = "uno-drv2605l"

  @Option(help: "Also create a symbolic link to the pseudo-terminal here.")
  var link: String?

  @Flag(help: "Leave the driver chip off the bus (the board must report it missing; DRV2605L boards).")
  var noChip = false

  @Flag(help: "Start with the bootloader only: the board runs nothing until flashed.")
  var blank = false

  @Flag(help: "Do not reset the board when a host opens the port (as with auto-reset disabled).")
  var noAutoReset = false

  @Option(help: "The emulated LRA's resonance, Hz (what the driver's calibration measures; default 175.1).")
  var lraF0: Double?

  @OptionGroup var traceOptions: TraceOptions

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    if let lraF0, !(lraF0 >= 40 && lraF0 <= 1000) { throw ValidationError("--lra-f0 must be 40–1000 Hz") }
  }

  func run() throws {
    let definition = try boardOptions.board(board)
    guard let emulator = definition.file.emulator, let firmware = definition.file.firmware else {
      throw CLIError("board \(board) has no emulator (its board file \(definition.path ?? "(built in)") has no emulator section)")
    }
    let configuration = SimulatorConfiguration(profile: definition.profile)
    // How the emulator's drive trace becomes drive (for --trace).
    let replay: EmulatedDriveReplay? =
      switch definition.file.driver {
      case DRV2605LRTPDriver.name:
        .drv2605l(DRV2605LTraceReplay(actuator: configuration.actuators[0], physicsRate: configuration.physicsRate))
      case PWMHBridgeDriver.name, PWMHBridgeERMDriver.name:
        .pwm(PWMTraceReplay(actuators: configuration.actuators, physicsRate: configuration.physicsRate))
      default: nil
      }
    if traceOptions.trace != nil && replay == nil {
      throw CLIError("--trace: no drive model for the \(definition.file.driver) driver of \(board)")
    }
    if (noChip || lraF0 != nil) && definition.file.driver != DRV2605LRTPDriver.name {
      throw CLIError("--\(noChip ? "no-chip" : "lra-f0"): the \(board) board has no driver chip to model")
    }
    if (blank || noAutoReset) && emulator.bootloader == nil {
      throw CLIError("--\(blank ? "blank" : "no-auto-reset"): the \(board) emulator has no bootloader")
    }
    // Bad input first: the trace's folder is checked before anything is built.
    try traceOptions.checkFolder()
    let program = try Self.build(definition, emulator: emulator, firmware: firmware, boardOptions: boardOptions)
    let traceFile = try traceOptions.file(physicsRate: configuration.physicsRate)
    var options: [String] = []
    if let bootloader = program.bootloader {
      options += ["--bootloader", bootloader]
      if blank { options.append("--blank") }
      if !noAutoReset { options.append("--auto-reset") }
    }
    if noChip { options.append("--no-chip") }
    // Host times: the emulator tells each tie of its simulated time to the wall clock.
    if traceOptions.traceHostTime { options.append("--anchors") }
    if let lraF0 { options += ["--lra-f0", String(lraF0)] }
    let session: EmulatorSession
    do {
      session = try EmulatorSession(
        program: program.emulator, firmware: program.firmware, link: link, options: options,
        trace: traceFile.flatMap { file in replay.map { (file: file, replay: $0) } })
    } catch {
      // The board never started: no trace files are left behind.
      traceFile?.discard()
      throw error
    }
    let signals = SignalWatch([SIGINT, SIGTERM, SIGUSR1]) { number in
      number == SIGUSR1 ? session.powerCycle() : session.requestStop()
    }
    print(session.ptyPath)
    fflush(nil)
    printError("emulated \(board) board on \(session.ptyPath)\(link.map { " (link \($0))" } ?? ""); Ctrl-C ends it")
    let outcome = session.run()
    signals.cancel()
    printError("emulator stopped: \(outcome.summary)")
    if let failure = traceFile?.failure { throw failure }
    if let failure = outcome.failure { throw failure }
  }

  /// Builds what is missing or stale; returns the emulator program and the firmware image.
  static func build(
    _ definition: BoardDefinition, emulator: BoardFile.Emulator, firmware: BoardFile.Firmware, boardOptions: BoardOptions
  ) throws -> (emulator: String, firmware: String, bootloader: String?) {
    let directories = boardOptions.boardsDirectories
    let firmwareFolders = try FirmwareLocator.firmwareFolders(definition, firmware: firmware, boardDirectories: directories)
    let firmwareFolder = firmwareFolders[0]
    let emulatorFolder = try FirmwareLocator.sourceFolder(
      definition, source: emulator.source, what: "emulator", boardDirectories: directories)
    let image = firmwareFolder + "/" + emulator.firmwareImage
    let program = emulatorFolder + "/" + emulator.program
    let install = "needs the Debian packages \(emulator.packages.joined(separator: ", ")) (sudo apt-get install \(emulator.packages.joined(separator: " ")))"
    func run(_ command: [String], in folder: String, artifact: String, what: String) throws {
      try FirmwareLocator.requireWritable(folder, artifact: artifact, what: "\(definition.id) \(what)")
      printError("building the \(definition.id) \(what) in \(folder)")
      do {
        try Shell.run(command, in: folder, what: "the \(what) build", quietStandardOutput: true)
      } catch let error as CLIError {
        throw CLIError("\(error.message); the emulated \(definition.id) \(install)")
      }
    }
    if FirmwareLocator.needsBuild(artifact: image, sources: firmwareFolders) {
      try run(firmware.build, in: firmwareFolder, artifact: image, what: "firmware")
    }
    // The emulator reads the firmware's state at offsets compiled from its headers: a change
    // of its folder or the firmware's rebuilds it.
    if FirmwareLocator.needsBuild(artifact: program, sources: [emulatorFolder] + firmwareFolders) {
      try run(emulator.build, in: emulatorFolder, artifact: program, what: "emulator")
    }
    if !FileManager.default.fileExists(atPath: image) {
      throw CLIError("the build did not produce the firmware image \(image); the emulated \(definition.id) \(install)")
    }
    if !FileManager.default.isExecutableFile(atPath: program) {
      throw CLIError("the build did not produce the emulator \(program); the emulated \(definition.id) \(install)")
    }
    let bootloader = emulator.bootloader.map { emulatorFolder + "/" + $0 }
    if let bootloader, !FileManager.default.fileExists(atPath: bootloader) {
      throw CLIError("the build did not produce the bootloader \(bootloader); the emulated \(definition.id) \(install)")
    }
    return (program, image, bootloader)
  }
}
