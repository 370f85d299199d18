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

      The firmware sources are found beside a user board's file, in --boards-dir, in \
      $HAPTICCTL_DATA_DIR/Boards, in Boards/ of the hapticctl checkout holding the current \
      folder, or in the data Scripts/install.sh installs beside the program \
      (PREFIX/share/hapticctl/Boards for PREFIX/bin/hapticctl, with the images prebuilt).
      """)

  @Option(help: "Board id (hapticctl boards lists them).")
  var board: String

  @Option(help: "Serial port of the board's bootloader (e.g. /dev/ttyACM0).")
  var port: String

  @Option(help: "Flash this firmware file instead of building the board's own.")
  var firmware: String?

  @Flag(help: "Print the commands without running them.")
  var dryRun = false

  @OptionGroup var boardOptions: BoardOptions

  func run() throws {
    // The flashing tool drives a local port's DTR for the bootloader's reset; a network port's
    // would go through RFC 2217, which this does not do yet (issue 30).
    if (try? NetworkAddress.parse(port)) != nil {
      throw CLIError("cannot flash through a network port (\(port)): run hapticctl flash on the machine the board is plugged into; nothing was written")
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
    let arguments = method.arguments.map {
      $0.replacingOccurrences(of: "{port}", with: port).replacingOccurrences(of: "{firmware}", with: image)
        .replacingOccurrences(of: "{baud}", with: String(definition.file.link.baud))
    }
    if dryRun {
      if let buildStep { print("(cd \(Shell.quote(buildStep.folder)) && \(buildStep.command.map(Shell.quote).joined(separator: " ")))") }
      print(([method.tool] + arguments).map(Shell.quote).joined(separator: " "))
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
    guard FileManager.default.fileExists(atPath: port) else {
      throw CLIError("no such port \(port) (is the board plugged in? hapticctl ports lists ports)")
    }
    guard let tool = Shell.find(method.tool) else {
      throw CLIError("\(method.tool) not found on PATH (Debian/Ubuntu: sudo apt-get install \(method.tool))")
    }
    // The flashing tool does not lock the port: a port another program holds (hapticctl's
    // lock) is refused here, before the tool could write into someone else's session.
    do {
      try Transports.open(path: port, baud: definition.file.link.baud).close()
    } catch {
      if error.code == .portBusy {
        throw CLIError("\(port) is busy: another program has it open (a running hapticctl send or sim, a serial monitor); nothing was written")
      }
      throw CLIError("cannot open \(port): \(error.description); nothing was written")
    }
    let flashed = try Shell.capture([tool] + arguments, what: method.tool)
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

/// Running external tools.
enum Shell {
  /// `text` quoted for a POSIX shell when it needs it.
  static func quote(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0) }
    return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The executable `name` on PATH (or `name` itself when it is a path).
  static func find(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs a command with its standard output and error captured together; standard input is
  /// empty.
  static func capture(_ command: [String], what: String) throws -> (status: Int32, output: String) {
    guard let executable = find(command[0]) else { throw CLIError("\(command[0]) not found on PATH (needed for \(what))") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw CLIError("cannot run \(command[0]): \(error.localizedDescription)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Runs a command with inherited standard streams (its standard output on standard error
  /// when `quietStandardOutput`, for commands whose own output is machine-read); a failure is a
  /// CLI error naming `what`.
  static func run(_ command: [String], in folder: String?, what: String, quietStandardOutput: Bool = false) throws {
    guard let executable = find(command[0]) else { throw CLIError("\(command[0]) not found on PATH (needed for \(what))") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(command.dropFirst())
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    if quietStandardOutput { process.standardOutput = FileHandle.standardError }
    do {
      try process.run()
    } catch {
      throw CLIError("cannot run \(command[0]): \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CLIError("\(what) failed (\(command[0]) exited with status \(process.terminationStatus))")
    }
  }
}
