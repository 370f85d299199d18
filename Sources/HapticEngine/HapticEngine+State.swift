import HapticCore
import HapticLocks
import HapticRenderer
import HapticTransport
import HapticWire

extension HapticEngine {
  /// Everything the engine's threads share (the loop, link threads, clients' calls): one
  /// struct behind ``HapticEngine/state``, reached only through `withLock`.
  struct State: Sendable {
    var scheduler: StreamScheduler?
    /// The scheduler's counters when the engine last stopped (a reset, a disconnect, a stop).
    var countersAtHalt: StreamScheduler.Counters?
    var running = false
    var nextPlayerID = 1
    /// Every player the engine knows, by id.
    var players: [Int: EnginePlayer] = [:]
    /// How many released players are still remembered (their tracks may still play).
    var releasedPlayers = 0
    /// `notifyWhenPlayersFinished` handlers waiting for every player to finish, in order.
    var finishHandlers: [@Sendable ((any Error)?) -> HapticEngineFinishedAction] = []
    /// `stop(completionHandler:)` requests waiting for every player to finish and the drive to
    /// come to rest.
    var stopRequests: [(@Sendable ((any Error)?) -> Void)?] = []
    var idleSince: Double?
    /// The current loop thread, until it has ended.
    var loop: LoopThread?
    /// Which loop thread is current: a thread whose generation is not this one ends (a start
    /// from inside a handler on the loop thread starts a new loop while the old one unwinds).
    var loopGeneration = 0
    var loopStop = false
    var lastStatus: BoardStatus?
    /// The board's status when the engine started (its counters are since boot), once answered.
    var statusAtStart: BoardStatus?
    /// A status requested at the start is still to come.
    var statusAtStartPending = false
    /// The largest lookahead the scheduler used since the start, frames.
    var lookaheadPeak = 0
    var statusCount = 0
    var handlers = Handlers()
    /// Audio settings.
    var audio = AudioSettings()
  }

  /// The handlers and switches a client sets.
  struct Handlers: Sendable {
    var stopped: (@Sendable (HapticEngineStoppedReason) -> Void)?
    var reset: (@Sendable () -> Void)?
    var status: (@Sendable (BoardStatus) -> Void)?
    var autoShutdown = false
    var muted = false
  }

  /// The engine's audio switches.
  struct AudioSettings: Sendable {
    var hapticsOnly = false
    var muted = false
  }

  /// Everything the engine keeps about one player (its track lives in the scheduler, and is
  /// rebuilt from this when the engine starts again).
  struct EnginePlayer: Sendable {
    /// The pattern it plays.
    let pattern: HapticPattern
    /// The channels it plays on.
    let channels: [Int]
    var completion: (@Sendable ((any Error)?) -> Void)?
    /// Whether its last finish was reported (or it has not been started).
    var reported = true
    /// Invalidated by a board reset or a lost link.
    var invalid = false
    /// The player object is gone: forget it once its track has finished and its completion
    /// was reported.
    var released = false
    /// Settings that survive an engine stop and start.
    var loop: (enabled: Bool, end: Double)?
    var rate = 1.0
    /// Actions scheduled and not yet due: the frame asked for (before any lead was added) and
    /// the frame they take effect. An action never takes effect before one asked for earlier
    /// or at the same time (``HapticEngine/perform(_:player:at:)``).
    var pending: [(asked: Int, at: Int)] = []
    var muted = false
    /// The pattern's audio events mixed into one track from its start, per playback rate
    /// (rendered when first needed; `[]` when it has none).
    var audioTracks: [Double: [Float]] = [:]
    /// The audio marks already put on the output (recent ones).
    var routedAudio: [AudioMark] = []
  }

  /// A loop thread's end, as the thread itself reports it (`halt()` waits for it).
  final class LoopThread: Sendable {
    /// The shared thread that runs the passes instead of a thread of the engine's own.
    let reactor: Reactor?
    /// The pass source's token on ``reactor``, once added.
    let registration = Locked<Int?>(nil)
    private let ended = Locked(false)

    init(reactor: Reactor? = nil) { self.reactor = reactor }

    /// The thread, set once before it starts (compared with `pthread_self()`).
    let id = Locked<UInt?>(nil)
    func markEnded() { ended.withLock { $0 = true } }
    var hasEnded: Bool { ended.withLock { $0 } }
  }
}

extension HapticEngine.State {
  /// Whether anything plays, is paused, has a pending command, or finished without its
  /// completion reported yet.
  var playing: Bool {
    scheduler?.tracks.contains { track in
      track.state == .playing || track.state == .paused || !track.actions.isEmpty
        || (track.finishedAt != nil && players[track.id]?.reported == false)
    } ?? false
  }

  /// Marks the players in `released` (their objects were deallocated), then forgets released
  /// players whose tracks are done (no pending command, not playing or paused, end reported)
  /// and drops their tracks; returns the players forgotten (for the caller to drop once the
  /// state is unlocked). Does nothing (no allocation) while no player was released.
  mutating func forgetReleasedPlayers(_ released: [Int]) -> [HapticEngine.EnginePlayer] {
    for id in released where players[id]?.released == false {
      players[id]?.released = true
      releasedPlayers += 1
    }
    guard releasedPlayers > 0, var scheduler = scheduler.take() else { return [] }
    defer { self.scheduler = scheduler }
    let tracks = scheduler.tracks
    var forgotten: [HapticEngine.EnginePlayer] = []
    for (id, player) in players where player.released {
      if let track = tracks.first(where: { $0.id == id }) {
        guard track.actions.isEmpty, track.state == .finished || track.state == .idle, player.reported else { continue }
      }
      forgotten.append(player)
      players[id] = nil
      releasedPlayers -= 1
    }
    if !forgotten.isEmpty { scheduler.prune(keeping: Set(players.keys)) }
    return forgotten
  }
}
