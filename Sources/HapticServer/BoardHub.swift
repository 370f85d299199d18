import Foundation
import HapticCore
public import HapticEngine
import HapticEngineSimulator
public import HapticRenderer
import HapticLocks
import HapticSimulator

/// The boards a server keeps open, one engine each, and the players clients made on them.
public final class BoardHub: Sendable {
  /// One board served.
  struct Served: Sendable {
    let id: String
    let name: String
    let source: String
    var profile: BoardProfile
    var engine: HapticEngine
    var link: any BoardLink
    /// Each channel's felt level and drive now: the in-process simulator's, or a mirrored
    /// serial board's picture.
    var sample: (@Sendable () -> [(envelope: Double, level: Double, frequency: Double)])?
    var state = "running"
    /// Opens the board again after it went away (a serial board), if it can be.
    var reopen: (@Sendable () throws(ServerError) -> OpenedBoard)?
  }

  struct State: Sendable {
    var boards: [Served] = []
    var players: [Int: ServedPlayer] = [:]
    var nextPlayer = 1
    var nextPlay = 1
    var closed = false
    /// Whether the thread asking driving boards for their status runs (``startStatusPolling()``).
    var statusPolling = false
  }

  let state = Locked(State())
  /// What clients are told as it happens.
  public let events: ServerEvents
  /// The most players kept at once; past it the oldest done ones go, else a create is refused.
  public static let maxPlayers = 256

  /// An empty hub telling `events`.
  public init(events: ServerEvents = ServerEvents()) {
    self.events = events
  }

  /// Opens the in-process simulator of `profile` in real time and serves it.
  ///
  /// - Throws: ``ServerError`` when the engine does not start.
  public func addSimulated(_ profile: BoardProfile) throws(ServerError) {
    do {
      let link = try SimulatorBoardLink(configuration: .init(profile: profile), clock: .realTime)
      let engine = try HapticEngine(link: link)
      try engine.start()
      add(engine, link: link, profile: profile, source: "sim")
    } catch {
      throw ServerError(.boardFailed, field: profile.id, "the simulated board did not start: \(error)")
    }
  }

  /// Serves a started `engine` over `link` on a board of `profile` found at `source` (`sim`, a
  /// port path); its id is the profile's, numbered when taken (`sim-lra-2`). Returns the id.
  @discardableResult
  public func add(
    _ engine: HapticEngine, link: any BoardLink, profile: BoardProfile, source: String,
    reopen: (@Sendable () throws(ServerError) -> OpenedBoard)? = nil
  ) -> String {
    let sample = Self.sampler(link)
    let id = state.withLock { state in
      let taken = Set(state.boards.map(\.id))
      var id = profile.id
      var number = 2
      while taken.contains(id) {
        id = "\(profile.id)-\(number)"
        number += 1
      }
      state.boards.append(
        Served(
          id: id, name: profile.name, source: source, profile: profile, engine: engine, link: link, sample: sample,
          reopen: reopen))
      return id
    }
    watch(engine, id)
    events.publish(.board(id: id, event: "connected", message: "\(profile.name) at \(source)"))
    return id
  }

  /// Each channel's felt level and drive, read from an in-process simulated board, or from the
  /// picture a mirrored link keeps of a serial board (what the server sent it, through the
  /// actuator's physics).
  static func sampler(_ link: any BoardLink) -> (@Sendable () -> [(envelope: Double, level: Double, frequency: Double)])? {
    if let link = link as? SimulatorBoardLink { return { @Sendable in link.channelsNow } }
    if let link = link as? MirroredBoardLink { return { @Sendable in link.channelsNow } }
    return nil
  }

  /// Hears board `id`'s resets, stops and status (its watchdog).
  func watch(_ engine: HapticEngine, _ id: String) {
    engine.resetHandler = { [weak self] in self?.boardReset(id) }
    engine.stoppedHandler = { [weak self] reason in self?.boardStopped(id, reason: reason) }
    watchStatus(engine, id)
    startStatusPolling()
  }

  /// The boards served, in the order they were added, as clients see them now.
  public var boards: [BoardInfo] {
    state.withLock { $0.boards }.map { Self.info($0) }
  }

  /// Board `id` as clients see it now.
  public func board(_ id: String) throws(ServerError) -> BoardInfo {
    Self.info(try served(id))
  }

  static func info(_ served: Served, report: HapticEngine.Report? = nil) -> BoardInfo {
    BoardInfo(
      id: served.id, name: served.name, source: served.source, state: served.state, profile: served.profile,
      capabilities: served.engine.capabilities, report: report ?? served.engine.report, statistics: served.link.statistics)
  }

  /// Board `id` with its health after asking the board for a fresh status (its own underrun
  /// and late-batch counts), waiting up to 1 s for the answer (off the caller's thread).
  public func probe(_ id: String) async throws(ServerError) -> BoardInfo {
    let board = try running(id)
    let report = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: board.engine.reportWithBoardStatus(timeout: 1)) }
    }
    guard report.boardStatusAnswered else {
      throw ServerError(.boardFailed, field: "board", "board \(id) did not answer a status request within 1 s")
    }
    return Self.info(board, report: report)
  }

  /// The served board `id`.
  func served(_ id: String) throws(ServerError) -> Served {
    let (board, ids) = state.withLock { state in (state.boards.first { $0.id == id }, state.boards.map(\.id)) }
    guard let board else {
      throw ServerError(.notFound, field: "board", "no board \(id) (served: \(ids.joined(separator: ", ")))")
    }
    return board
  }

  /// The board restarted: its players failed (their completions say so); the engine starts
  /// again so the board can play the next request.
  private func boardReset(_ id: String) {
    guard let served = try? served(id) else { return }
    do {
      try served.engine.start()
      setState(id, "running")
      events.publish(.board(id: id, event: "reset", message: "the board restarted; its players ended"))
    } catch {
      setState(id, "stopped")
      events.publish(.board(id: id, event: "failed", message: "the board restarted and did not come back: \(error)"))
    }
  }

  private func boardStopped(_ id: String, reason: HapticEngineStoppedReason) {
    switch reason {
    case .boardDisconnected:
      setState(id, "gone")
      events.publish(.board(id: id, event: "gone", message: "the board went away; its players ended"))
      reconnect(id)
    case .boardReset, .idleTimeout, .notifyWhenFinished:
      return
    case .systemError:
      // A port that vanished may fail a write before its read notices: a board that can be
      // opened again is gone, not stopped (seen when sim serve ends mid-stream).
      if (try? served(id))?.reopen != nil {
        setState(id, "gone")
        events.publish(.board(id: id, event: "gone", message: "the board could not be driven (its port failed); its players ended"))
        reconnect(id)
      } else {
        setState(id, "stopped")
        events.publish(.board(id: id, event: "failed", message: "the engine stopped: the board could not be driven"))
      }
    }
  }

  func setState(_ id: String, _ value: String) {
    state.withLock { state in
      if let index = state.boards.firstIndex(where: { $0.id == id }) { state.boards[index].state = value }
    }
  }

  /// Stops every board's drive and closes them, and ends every event subscription (the
  /// server's shutdown). Players are dropped first: nothing is left driving.
  public func close() {
    let (engines, players) = state.withLock { state in
      defer {
        state.boards.removeAll()
        state.players.removeAll()
        state.closed = true
      }
      return (state.boards.map(\.engine), Array(state.players.values))
    }
    for served in players { try? served.player.stop(atTime: 0) }
    withExtendedLifetime(players) {
      for engine in engines { engine.close() }
    }
    events.finishAll()
  }
}
