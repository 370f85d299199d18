import Foundation
import HapticEngine
import HapticLocks
import HapticRenderer
import HapticWire

/// A board of a rig as it is now: its engine (replaced when the board comes back), its link's
/// clock origin, and whether it is lost.
final class MemberSlot: Sendable {
  struct State: Sendable {
    var engine: HapticEngine
    var hostEpoch: Double
    var lost: String?
    /// Counts the engines the board has had: a handler of an engine replaced since is ignored.
    var generation = 0
  }

  let state: Locked<State>

  init(engine: HapticEngine, hostEpoch: Double) {
    state = Locked(State(engine: engine, hostEpoch: hostEpoch))
  }
}

/// What a rig's rejoining shares.
struct Rejoining: Sendable {
  /// The rig was closed: nothing more is reopened.
  var closed = false
  /// Lost boards are waited for and brought back (else they stay lost).
  var enabled = true
  /// The players to bring back onto a returning board (weakly: a dropped player is not kept).
  var players: [WeakPlayer] = []
}

/// A player the rig does not keep alive.
struct WeakPlayer: @unchecked Sendable {
  weak var player: RigPlayer?
}

extension Rig {
  /// Whether a lost board is waited for and rejoins the timeline when it comes back (true by
  /// default; `send --rig --on-board-loss stop` turns it off).
  public var rejoinsLostBoards: Bool {
    get { rejoining.withLock { $0.enabled } }
    set { rejoining.withLock { $0.enabled = newValue } }
  }

  /// How often a lost board's port is tried again, seconds.
  static let rejoinInterval = 0.5

  /// Registers `player` to be brought back onto boards that return.
  func register(_ player: RigPlayer) {
    rejoining.withLock { state in
      state.players.removeAll { $0.player == nil }
      state.players.append(WeakPlayer(player: player))
    }
  }

  /// Watches board `index`'s current engine: a disconnect, a reset or a failure loses the board.
  func watch(_ index: Int) {
    let (engine, generation) = members[index].slot.state.withLock { ($0.engine, $0.generation) }
    engine.stoppedHandler = { [weak self] reason in
      switch reason {
      case .boardDisconnected, .boardReset, .systemError: self?.lose(index, generation: generation, "the engine stopped: \(reason)")
      case .idleTimeout, .notifyWhenFinished: break
      }
    }
    engine.resetHandler = { [weak self] in
      self?.lose(index, generation: generation, "the board reset (its queued drive is lost)")
    }
  }

  /// Board `index` is lost (once per engine): reported, and waited for unless the rig is closed
  /// or does not rejoin.
  private func lose(_ index: Int, generation: Int, _ reason: String) {
    let first = members[index].slot.state.withLock { state -> Bool in
      guard state.generation == generation, state.lost == nil else { return false }
      state.lost = reason
      return true
    }
    guard first else { return }
    report(members[index].entry.name, .lost(reason))
    guard rejoining.withLock({ $0.enabled && !$0.closed }) else { return }
    let lost = members[index].engine
    // The loop holds the rig only while it tries: a rig dropped without `close()` ends it.
    let thread = Thread { [weak self] in
      lost.close()
      while true {
        usleep(UInt32(Self.rejoinInterval * 1_000_000))
        guard let rig = self, !rig.rejoining.withLock({ $0.closed }) else { return }
        if rig.tryRejoin(index, as: lost) { return }
      }
    }
    thread.name = "rig rejoin \(members[index].entry.name)"
    thread.start()
  }

  /// Opens board `index`'s port again; when it answers as the board it was (`lost`'s board and
  /// channels), puts the new engine in its place, brings the players back onto it and returns
  /// true.
  private func tryRejoin(_ index: Int, as lost: HapticEngine) -> Bool {
    let member = members[index]
    guard let engine = try? opener(member.entry) else { return false }
    do {
      try engine.start()
    } catch {
      engine.close()
      return false
    }
    // As at the rig's opening: a second of round trips behind the new link's clock fit before
    // its board is put back on the timeline (a younger fit placed it 2–3 ms off).
    Thread.sleep(forTimeInterval: Self.settleTime)
    guard engine.capabilities.boardID == lost.capabilities.boardID, engine.profile.channels.count == lost.profile.channels.count,
      !rejoining.withLock({ $0.closed })
    else {
      engine.close()
      return rejoining.withLock { $0.closed }
    }
    member.slot.state.withLock { state in
      state.engine = engine
      state.hostEpoch = Self.hostEpoch(of: engine.link)
      state.lost = nil
      state.generation += 1
    }
    watch(index)
    report(member.entry.name, .rejoined)
    for player in rejoining.withLock({ $0.players.compactMap(\.player) }) { player.rejoin(board: index) }
    return true
  }
}
