import ArgumentParser
import Foundation
import HapticBoards
import HapticLocks
import HapticRenderer
import HapticServer
import Hummingbird
import Logging

/// `hapticctl serve [--listen HOST:PORT] [--sim ID]… [--port P]… [--board ID]… [--scan]
/// [--library DIR] [--token T]` (issue 28; the API: docs/api.yaml).
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Keep boards open and serve them over HTTP until terminated.",
    discussion: """
      Opens every board given once (--sim ID for a simulated one, --port PATH for a serial \
      one, --scan for the USB ports of known boards); a serial board that goes away is opened \
      again when its port comes back. Serves the HTTP API \
      (docs/api.yaml): boards, players (start, stop, pause, resume, seek, loop, rate, live \
      parameters) of AHAP or .haptic documents, library files (--library DIR) and presets, and \
      the WebSocket /v1/ws (events, live parameters, a 200 Hz stream of each board). Prints \
      "listening on http://HOST:PORT" first. Listening beyond loopback needs --token; every \
      request then carries "Authorization: Bearer TOKEN". Ctrl-C or SIGTERM stops the boards \
      and ends it.
      """)

  @Option(help: "Where to listen, HOST:PORT (port 0: any free one).")
  var listen = "127.0.0.1:8040"

  @Option(help: "Serve a simulated board of this id (repeat for more).")
  var sim: [String] = []

  @Option(help: "Serve the board on this serial port or pseudo-terminal, or tcp://HOST:PORT or rfc2217://HOST:PORT (ser2net; repeat for more).")
  var port: [String] = []

  @Option(help: "The board file of each --port, in order (default: the one its capabilities and USB ids name).")
  var board: [String] = []

  @Option(parsing: .unconditional, help: "Baud rate of the serial ports (default: each board's own, found by trying each known board's).")
  var baud: Int?

  @Flag(help: "Also serve every USB port whose VID:PID belongs to a known board file.")
  var scan = false

  @Option(help: "The token every request must carry (required off loopback).")
  var token: String?

  @Option(help: "A folder of AHAP and .haptic files clients may play by name (nothing outside it is readable).")
  var library: String?

  @OptionGroup var boardOptions: BoardOptions

  /// `listen` split into host and port.
  var address: (host: String, port: Int) {
    get throws {
      guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
        (0...65_535).contains(port), colon > listen.startIndex
      else { throw ValidationError("--listen \(listen): expected HOST:PORT, e.g. 127.0.0.1:8040") }
      return (String(listen[..<colon]), port)
    }
  }

  func validate() throws {
    let host = try address.host
    if token == nil && !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
      throw ValidationError("--listen \(listen) is not loopback: give --token so that only its holders can drive the boards")
    }
    if sim.isEmpty && port.isEmpty && !scan { throw ValidationError("no board to serve: give --sim ID, --port PATH or --scan") }
    if !board.isEmpty && board.count != port.count {
      throw ValidationError("--board names the board file of each --port, in order: give one per port (\(port.count)) or none")
    }
    if baud == 1200 { throw ValidationError("--baud 1200 resets some boards (it is their bootloader's signal)") }
  }

  func run() throws { try serve() }

  /// Opens the boards and serves until terminated; with `studio`, also the studio's page, whose
  /// address `announce` is given once the server listens.
  func serve(studio: StudioPage? = nil, announce: @escaping @Sendable (String) -> Void = { _ in }) throws {
    let library: PatternLibrary?
    do {
      library = try self.library.map { folder throws(ServerError) in try PatternLibrary(folder: folder) }
    } catch {
      throw CLIError("serve: --library: \(error.message)")
    }
    let hub = BoardHub()
    defer { hub.close() }
    try ServedBoards(options: self).open(into: hub)
    let (host, port) = try address
    // Hummingbird's own notes (warnings and worse) go to standard error; standard output
    // carries the address line only.
    var logger = Logger(label: "hapticctl serve") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .warning
    let router = BoardServer.router(
      hub: hub, token: token, library: library, studio: studio, profiles: boardOptions.catalog().boards.map(\.profile))
    let app = Application(
      router: router, server: BoardServer.server(for: router),
      configuration: .init(address: .hostname(host, port: port), serverName: "hapticctl"),
      onServerRunning: { channel in
        let bound = channel.localAddress?.port ?? port
        print("listening on http://\(host):\(bound)")
        fflush(nil)
        announce("http://\(host):\(bound)")
      },
      logger: logger)
    let failure = Locked<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      do { try await app.runService() } catch { failure.withLock { $0 = error } }
      done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) {
      let text = "\(error)"
      if text.contains("Address already in use") {
        throw CLIError("serve: \(host):\(port) is in use (another hapticctl serve, or another program, listens there)")
      }
      throw CLIError("serve: \(listen): \(text)")
    }
    printError("server stopped; boards stopped")
  }
}
