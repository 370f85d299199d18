import ArgumentParser
import HapticTransport

/// `--port PATH [--baud N]`: the board's serial port or pseudo-terminal, the same for every
/// command that talks to a board (`probe`, `calibrate`, `send`).
struct PortOptions: ParsableArguments {
  @Option(help: "Serial port or pseudo-terminal of the board (e.g. /dev/ttyACM0).")
  var port: String?

  @Option(parsing: .unconditional, help: "Baud rate (1200 is refused: it resets some boards).")
  var baud: Int = 115_200

  /// The port, for a command that needs one (a usage error without it).
  func required() throws -> String {
    guard let port else { throw ValidationError("give the board's port: --port PATH") }
    return port
  }

  /// Opens the port (a required one) at the baud rate; errors name the port.
  func open() throws -> (path: String, transport: any ByteTransport) {
    let path = try required()
    return (path, try openPort(path, baud: baud))
  }
}
