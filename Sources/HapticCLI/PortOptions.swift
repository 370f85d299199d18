import ArgumentParser
import HapticBoards
import HapticTransport

/// `--port PATH [--baud N]`: the board's serial port or pseudo-terminal, the same for every
/// command that talks to a board (`probe`, `calibrate`, `send`).
struct PortOptions: ParsableArguments {
  @Option(help: "Serial port or pseudo-terminal of the board (e.g. /dev/ttyACM0), or a board on another machine through ser2net: tcp://HOST:PORT, rfc2217://HOST:PORT.")
  var port: String?

  @Option(
    parsing: .unconditional,
    help: "Baud rate (default: the board's own, found by trying each known board's; 1200 is refused: it resets some boards).")
  var baud: Int?

  /// The port, for a command that needs one (a usage error without it).
  func required() throws -> String {
    guard let port else { throw ValidationError("give the board's port: --port PATH") }
    return port
  }

  /// The rates to try: `--baud`'s alone, else every known board's.
  func rates(_ boards: BoardOptions) -> LineRates {
    LineRates.chosen(baud: baud, catalog: boards.catalog())
  }

  /// Opens the port (a required one) at the first of `rates`; errors name the port.
  func open(at rates: LineRates) throws -> (path: String, transport: any ByteTransport) {
    let path = try required()
    return (path, try openPort(path, baud: rates.candidates[0]))
  }
}

extension LineRates {
  /// What a command's `--baud` and board files make of a port: `baud` alone when given (for
  /// the line and the timers), else every board of `catalog`, `board`'s rate first (`serve`'s
  /// `--board` for the port).
  static func chosen(baud: Int?, catalog: BoardCatalog, preferring board: String? = nil) -> LineRates {
    if let baud { return .fixed(baud) }
    return LineRates(boards: catalog.linkRates, preferring: board)
  }
}
