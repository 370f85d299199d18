import Foundation
public import HapticCore
public import HapticEngine
import HapticEngineSimulator
public import HapticRenderer
import HapticLocks

/// The boards a server keeps open, one engine each, and the players started on them.
public final class BoardHub: Sendable {
  /// One board the server serves.
  public struct Summary: Sendable, Codable, Equatable {
    /// The id clients name it by (`sim-lra`, or the board file's id and a number).
    public var id: String
    /// The board type's name.
    public var name: String
    /// Where it is: `sim` or the serial port's path.
    public var source: String
    /// Its channels: `LRA` or `ERM` each.
    public var channels: [String]
  }

  private struct Served: Sendable {
    var summary: Summary
    var engine: HapticEngine
  }

  private struct State: Sendable {
    var boards: [Served] = []
    var nextPlayer = 1
  }

  private let state = Locked(State())

  /// An empty hub.
  public init() {}

  /// Opens the in-process simulator of `profile` in real time and serves it.
  ///
  /// - Throws: ``ServerError`` when the engine does not start.
  public func addSimulated(_ profile: BoardProfile) throws(ServerError) {
    let engine: HapticEngine
    do {
      engine = try HapticEngine.simulated(profile: profile)
      try engine.start()
    } catch {
      throw ServerError(.boardFailed, field: profile.id, "the simulated board did not start: \(error)")
    }
    add(engine, profile: profile, source: "sim")
  }

  /// Serves a started `engine` on a board of `profile` found at `source` (`sim`, a port path);
  /// its id is the profile's, numbered when taken (`sim-lra-2`).
  public func add(_ engine: HapticEngine, profile: BoardProfile, source: String) {
    state.withLock { state in
      let taken = Set(state.boards.map(\.summary.id))
      var id = profile.id
      var number = 2
      while taken.contains(id) {
        id = "\(profile.id)-\(number)"
        number += 1
      }
      let summary = Summary(
        id: id, name: profile.name, source: source, channels: profile.channels.map { $0.kind == .lra ? "LRA" : "ERM" })
      state.boards.append(Served(summary: summary, engine: engine))
    }
  }

  /// The boards served, in the order they were added.
  public var boards: [Summary] { state.withLock { $0.boards.map(\.summary) } }

  /// Plays `pattern` on board `id` now; returns the play's number on this server. The player
  /// is not kept: the engine plays a released player to its end and then forgets it, so a
  /// server that plays for weeks holds nothing per play.
  ///
  /// - Throws: ``ServerError`` `notFound` for an unknown board, `boardFailed` when the engine
  ///   refuses the pattern or the start.
  public func play(_ pattern: HapticPattern, on id: String) throws(ServerError) -> Int {
    guard let engine = state.withLock({ state in state.boards.first { $0.summary.id == id }?.engine }) else {
      throw Self.unknown(id, among: boards)
    }
    let player: HapticPatternPlayer
    do {
      player = try engine.makePlayer(with: pattern)
      try player.start(atTime: 0)
    } catch {
      throw ServerError(.boardFailed, field: id, "\(error)")
    }
    return state.withLock { state in
      defer { state.nextPlayer += 1 }
      return state.nextPlayer
    }
  }

  /// The error for a board id the hub does not serve.
  static func unknown(_ id: String, among boards: [Summary]) -> ServerError {
    ServerError(.notFound, field: "board", "no board \(id) (served: \(boards.map(\.id).joined(separator: ", ")))")
  }

  /// Stops every board's drive and closes them (the server's shutdown).
  public func close() {
    let engines = state.withLock { state in
      defer { state.boards.removeAll() }
      return state.boards.map(\.engine)
    }
    for engine in engines { engine.stop() }
  }
}
