import Foundation
public import HapticEngine
public import HapticRenderer
import HapticLocks

/// A board opened: its started engine, its link and the profile it renders for.
public struct OpenedBoard: Sendable {
  public var engine: HapticEngine
  public var link: any BoardLink
  public var profile: BoardProfile

  /// A board opened.
  public init(engine: HapticEngine, link: any BoardLink, profile: BoardProfile) {
    self.engine = engine
    self.link = link
    self.profile = profile
  }
}

extension BoardHub {
  /// How often a board that went away is looked for again.
  static let reconnectPeriod = 0.5

  /// Opens a board with `open` (a serial port: the CLI knows how) and serves it; when it goes
  /// away (unplugged, the port closed) the hub opens it again every ``reconnectPeriod`` until it
  /// is back, under the same id. Returns the id.
  ///
  /// - Throws: what `open` throws the first time (the board must be there when the server
  ///   starts).
  @discardableResult
  public func addReopenable(
    source: String, open: @escaping @Sendable () throws(ServerError) -> OpenedBoard
  ) throws(ServerError) -> String {
    let board = try open()
    return add(board.engine, link: board.link, profile: board.profile, source: source, reopen: open)
  }

  /// Board `id` went away: its engine is closed (the port released) and a thread opens it again
  /// until it is back or the hub closes.
  func reconnect(_ id: String) {
    guard let board = try? served(id), let reopen = board.reopen else { return }
    // Not from the engine's own thread (the stopped handler may run there).
    DispatchQueue.global().async { board.engine.close() }
    let thread = Thread { [weak self] in
      while let hub = self, !hub.state.withLock({ $0.closed }) {
        Thread.sleep(forTimeInterval: Self.reconnectPeriod)
        guard let opened = try? reopen() else { continue }
        let kept = hub.state.withLock { state -> Bool in
          guard !state.closed, let index = state.boards.firstIndex(where: { $0.id == id }) else { return false }
          state.boards[index].engine = opened.engine
          state.boards[index].link = opened.link
          state.boards[index].profile = opened.profile
          state.boards[index].sample = Self.sampler(opened.link)
          state.boards[index].state = "running"
          return true
        }
        guard kept else {
          opened.engine.close()
          return
        }
        hub.watch(opened.engine, id)
        hub.events.publish(.board(id: id, event: "connected", message: "\(opened.profile.name) at \(board.source) is back"))
        return
      }
    }
    thread.name = "BoardHub reconnect \(id)"
    thread.start()
  }

  /// Board `id`, refused while it is gone or stopped.
  func running(_ id: String) throws(ServerError) -> Served {
    let board = try served(id)
    guard board.state == "running" else {
      throw ServerError(
        .boardFailed, field: "board",
        board.state == "gone" ? "board \(id) is gone; it is served again when it comes back" : "board \(id) has stopped")
    }
    return board
  }
}
