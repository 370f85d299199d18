import ArgumentParser
import Foundation
import HapticBoards
import HapticTransport
import HapticWire

/// `hapticctl flash --board ID --port PATH [--firmware HEX] [--dry-run]`.
struct Flash: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flash",
    abstract: "Build (if needed) and flash a board's firmware, then probe it.",
    discussion: """
      Uses the board file's firmware and flash sections: builds the firmware in its source \
      folder when the artifact is missing or older than its sources, runs the flashing tool \
      (avrdude -c arduino at 115200 through the Uno's bootloader, write and verify) and probes \
      the board: it must answer as the board flashed. Failures say what state the board is \
      left in. --dry-run prints the exact commands and touches nothing.

      A board on another machine, served by ser2net's telnet(rfc2217) accepter, flashes \
      through --port rfc2217://HOST:PORT: the board is reset by DTR over RFC 2217 and the \
      tool runs on a local pseudo-terminal bridged to it (the rate it sets goes along). Raw \
      tcp:// carries neither the rate nor DTR and is refused.

      The firmware sources are found beside a user board's file, in --boards-dir, in \
      $HAPTICCTL_DATA_DIR/Boards, in Boards/ of the hapticctl checkout holding the current \
      folder, or in the data Scripts/install.sh installs beside the program \
      (PREFIX/share/hapticctl/Boards for PREFIX/bin/hapticctl, with the images prebuilt).
      """)

  @Option(help: "Board id (hapticctl boards lists them).")
  var board: String

  @Option(help: "Serial port of the board's bootloader (e.g. /dev/ttyACM0), or rfc2217://HOST:PORT for a board on another machine (ser2net).")
  var port: String

  @Option(help: "Flash this firmware file instead of building the board's own.")
  var firmware: String?

  @Flag(help: "Print the commands without running them.")
  var dryRun = false

  @OptionGroup var boardOptions: BoardOptions

  func run() throws {
    let network: NetworkAddress?
    do {
      network = try NetworkAddress.parse(port)
    } catch {
      throw CLIError("cannot flash through \(port): \(error.description); nothing was written")
    }
    // A bootloader listens at its own rate after a reset by DTR: over a network only RFC 2217
    // carries both (raw TCP keeps the rate ser2net was given, and has no DTR).
    if let network, network.kind != .rfc2217 {
      throw CLIError(
        "cannot flash through \(port): raw TCP carries neither the bootloader's baud rate nor DTR (its reset); serve the port with ser2net's telnet(rfc2217) accepter and use rfc2217://\(network.host):\(network.port); nothing was written")
    }
    let definition = try boardOptions.board(board)
    guard let method = definition.file.flash, let build = definition.file.firmware else {
      throw CLIError("board \(board) has no flash method in its board file (\(definition.path ?? "built in"))")
    }
    let image: String
    var buildStep: (folder: String, command: [String])?
    if let firmware {
      guard FileManager.default.fileExists(atPath: firmware) else { throw CLIError("cannot flash \(firmware): no such file") }
      image = firmware
    } else {
      let folders = try FirmwareLocator.firmwareFolders(
        definition, firmware: build, boardDirectories: boardOptions.boardsDirectories)
      image = folders[0] + "/" + build.artifact
      if FirmwareLocator.needsBuild(artifact: image, sources: folders) { buildStep = (folders[0], build.build) }
    }
    let command = { (path: String) in
      [method.tool]
        + method.arguments.map {
          $0.replacingOccurrences(of: "{port}", with: path).replacingOccurrences(of: "{firmware}", with: image)
            .replacingOccurrences(of: "{baud}", with: String(definition.file.link.baud))
        }
    }
    if dryRun {
      if let buildStep { print("(cd \(Shell.quote(buildStep.folder)) && \(buildStep.command.map(Shell.quote).joined(separator: " ")))") }
      if network != nil {
        print("# \(port): connect, reset the board by DTR over RFC 2217, and bridge it to a local pseudo-terminal PTY")
        print(command("PTY").map(Shell.quote).joined(separator: " "))
      } else {
        print(command(port).map(Shell.quote).joined(separator: " "))
      }
      return
    }
    if let buildStep {
      try FirmwareLocator.requireWritable(buildStep.folder, artifact: image, what: "\(board) firmware")
      printError("building \(board) firmware in \(buildStep.folder)")
      try Shell.run(buildStep.command, in: buildStep.folder, what: "the firmware build")
      guard FileManager.default.fileExists(atPath: image) else { throw CLIError("the build did not produce \(image)") }
    }
    // A damaged image is refused before the board is touched.
    if image.hasSuffix(".hex") { try IntelHexCheck.validate(image) }
    if network == nil, !FileManager.default.fileExists(atPath: port) {
      throw CLIError("no such port \(port) (is the board plugged in? hapticctl ports lists ports)")
    }
    guard Shell.find(method.tool) != nil else {
      throw CLIError("\(method.tool) not found on PATH (Debian/Ubuntu: sudo apt-get install \(method.tool))")
    }
    let flashed: (status: Int32, output: String)
    if let network {
      flashed = try flashThroughNetwork(network, command: command, tool: method.tool, baud: definition.file.link.baud)
    } else {
      try requireFree(baud: definition.file.link.baud)
      flashed = try Shell.capture(command(port), what: method.tool)
    }
    // What the tool said, less a pseudo-terminal's complaint that it has no DTR/RTS lines (an
    // emulated board resets on open instead).
    let said = flashed.output.split(separator: "\n").filter { !$0.contains("TIOCM") }
    if !said.isEmpty { printError(said.joined(separator: "\n")) }
    if flashed.status != 0 { throw Self.failure(tool: method.tool, output: flashed.output, port: port) }
    // The bootloader starts the firmware once the tool leaves it; opening the port again resets
    // a board with auto-reset, and the probe's first frames end its bootloader's wait: no sleep.
    let transport: any ByteTransport
    do {
      transport = try Transports.open(path: port, baud: definition.file.link.baud)
    } catch {
      throw CLIError("flashed and verified, but cannot open \(port) to probe: \(error.description)")
    }
    defer { transport.close() }
    let result = try Prober(timeout: 3).probe(transport)
    print(ProbeReport.text(result))
    guard result.supportsHaptics, let capabilities = result.capabilities else {
      throw CLIError(
        "flashed and verified, but the board did not answer as hapticctl firmware within 3 s: \(result.reason ?? "no reason given")")
    }
    guard capabilities.boardID == definition.id else {
      throw CLIError(
        "flashed and verified, but the board answers as \(capabilities.boardID), not \(definition.id): is --board right for this hardware?")
    }
  }

  /// A clear error for a failed flashing tool: what went wrong and the state the board is in.
  static func failure(tool: String, output: String, port: String) -> CLIError {
    let text = output.lowercased()
    if text.contains("busy") || text.contains("resource temporarily unavailable") {
      return CLIError(
        "\(port) is busy: another program has it open (a running hapticctl send or sim, a serial monitor); nothing was written")
    }
    if text.contains("not in sync") || text.contains("not responding") || text.contains("unable to open programmer") {
      return CLIError(
        "\(tool) found no bootloader answering on \(port) (nothing was written: the board is as it was). Is it the board's USB port, is auto-reset working (or press reset as the upload starts), is another program using the port?")
    }
    if text.contains("verification") || text.contains("mismatch") {
      return CLIError(
        "\(tool) wrote the firmware to \(port) but verifying it failed: the board's flash holds a damaged image and it will not run until flashed again (the bootloader is still there: run flash again)")
    }
    return CLIError("\(tool) failed on \(port) (its messages are above); the board may hold a partial image: flash again")
  }
}
