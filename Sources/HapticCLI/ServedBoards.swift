import Foundation
import HapticBoards
import HapticEngine
import HapticEngineSimulator
import HapticRenderer
import HapticServer
import HapticTransport

/// The boards `hapticctl serve` opens: simulated ones, serial ports given, and with `--scan` the
/// USB ports whose VID:PID belongs to a known board file.
struct ServedBoards {
  let options: Serve

  /// Opens every board into `hub`; errors name the board or port.
  func open(into hub: BoardHub) throws {
    for id in options.sim {
      try hub.addSimulated(try PatternLoading.profile(id, boards: options.boardOptions))
    }
    let forced = try options.board.map { try PatternLoading.profile($0, boards: options.boardOptions) }
    var ports = options.port.enumerated().map {
      (path: $1, profile: forced.isEmpty ? nil : forced[$0], board: options.board.isEmpty ? nil : options.board[$0])
    }
    if options.scan {
      let catalog = options.boardOptions.catalog()
      let known = PortList.ports().filter { port in
        guard let vid = port.vendorID, let pid = port.productID else { return false }
        return !catalog.boards(vid: String(format: "%04x", vid), pid: String(format: "%04x", pid)).isEmpty
      }
      ports += known.map(\.name).filter { name in !ports.contains { $0.path == name } }.map { ($0, nil, nil) }
      if known.isEmpty && ports.isEmpty && options.sim.isEmpty {
        throw CLIError("serve: --scan found no port of a known board (hapticctl ports lists them)")
      }
    }
    for (path, profile, board) in ports {
      do {
        try hub.addReopenable(source: path, open: opener(path, profile: profile, board: board))
      } catch {
        throw CLIError("serve: cannot open \(path): \(error.message)")
      }
    }
  }

  /// Opens the board at `path` (probe, clock sync, engine started), rendered for `profile` or
  /// for the board file its capabilities and USB ids name, with its kept calibration; at
  /// `--baud`, else at the rate of `board` (its `--board`) or of any known board.
  func opener(_ path: String, profile: BoardProfile?, board: String?) -> @Sendable () throws(ServerError) -> OpenedBoard {
    let catalog = options.boardOptions.catalog()
    let store = CalibratedBoard.store(options.boardOptions)
    let rates = LineRates.chosen(baud: options.baud, catalog: catalog, preferring: board)
    return { () throws(ServerError) -> OpenedBoard in
      do throws(HapticEngineError) {
        // Mirrored: the server's stream shows what the board plays through its actuator's physics.
        let link = MirroredBoardLink(
          try SerialBoardLink(port: path, rates: rates) { capabilities, identity in
            profile ?? CalibratedBoard.resolve(capabilities, identity: identity, catalog: catalog, store: store).definition?.profile
          })
        let engine = try HapticEngine(link: link)
        do throws(HapticEngineError) {
          try engine.start()
        } catch {
          engine.close()
          throw error
        }
        return OpenedBoard(engine: engine, link: link, profile: link.profile)
      } catch {
        throw ServerError(.boardFailed, field: path, error.message)
      }
    }
  }
}
