import Foundation
import HapticCore
import HapticLocks
public import HapticAudio
public import HapticRenderer
public import HapticTransport
public import HapticWire

/// Core Haptics' engine over a board: players, a streaming scheduler that keeps the board's
/// queue a bounded lookahead ahead of its clock, and the lifecycle handlers.
///
/// Times (`currentTime`, every `atTime:`) are **board seconds** (the board clock via clock
/// sync). Handlers run on the engine's loop thread or a link thread, never with a lock held.
public final class HapticEngine: Sendable {
  /// Scheduling settings.
  public struct Configuration: Sendable {
    /// How far ahead of the board clock drive is rendered and queued, at least. The engine
    /// raises it while the link is slow to deliver (recoveries from loss), up to
    /// ``maximumLookahead`` (docs/protocol.md §8). The default, 80 ms, refills the board every
    /// 40 ms (a chunk of half the lookahead, at most 40 ms) when it holds 40 ms: two wake-ups
    /// per refill (the pass and its acknowledgement), under a heartbeat's time (half the 100 ms
    /// watchdog) so no heartbeat goes out between them. 30 ms refilled every 15 ms: 16 two-channel
    /// boards took 14 % of a core against 7.5 % (docs/semantics.md §13.2).
    public var lookahead = 0.080
    /// The most the lookahead grows to on a lossy link; equal to ``lookahead`` for a fixed one.
    /// Changes keep their latency whatever the lookahead (they replace queued drive).
    public var maximumLookahead = 0.400
    /// The least time from now, on the board's clock, to the first frame a change made now
    /// changes: it covers the host's work, the transmission and the clock-sync error. The
    /// engine uses at least the link's ``BoardLink/minimumLead`` per channel of the board (a
    /// change goes out as a batch per channel, in turn: about 5 ms at 115 200 baud on one
    /// channel, 10 ms on two; under 2 ms at 500 000 baud), later when its messages cannot reach the
    /// board in time behind that (``HapticEngine`` `+Fitting`). A change then starts between this and one
    /// frame period more after the call (docs/semantics.md §13.1).
    public var guardTime = 0.001
    /// The step of ``HapticEngine/advance(to:)`` on a virtual clock. In real time the loop
    /// needs no fixed period while something plays: it sleeps until the queue falls to half
    /// the lookahead or a player's end is played (changes never wait for a pass).
    public var cadence = 0.008
    /// Period of the scheduler loop while nothing plays (a change wakes it at once, and an idle
    /// timeout due sooner is kept; a resident server keeps engines idle for hours: 20 passes a
    /// second were a third of its idle CPU, and 4 were a fifth once the readers slept).
    public var idleCadence = 1.0
    /// Idle time before an auto-shutdown (when ``HapticEngine/isAutoShutdownEnabled``).
    public var idleTimeout = 120.0
    /// How long `start()` waits for clock sync.
    public var startTimeout = 3.0
    /// Where audio events play (docs/semantics.md §13.9): `nil` for none. The engine schedules
    /// players' audio on it but does not close it.
    public var audioOutput: (any AudioOutput)?
    /// The thread that runs the scheduler's passes and reads the board, shared with other
    /// engines (a rig's boards: their passes, due on one frame grid, then cost one wake-up
    /// instead of one each; docs/architecture.md §5.11). Nil: a loop thread of the engine's own
    /// and a reader thread of its link's. A virtual clock ignores it.
    public var reactor: Reactor?

    /// The defaults.
    public init() {}
  }

  /// What the engine did so far (the `send` report).
  public struct Report: Sendable, Hashable {
    /// Frames rendered (lookahead re-renders included).
    public var framesRendered = 0
    /// Segments sent.
    public var segments = 0
    /// Replace batches sent (changes that re-rendered queued drive).
    public var replaces = 0
    /// Scheduler passes that found the host behind the board (drive lost, not caught up).
    public var underruns = 0
    /// Bytes written to the board.
    public var wireBytes = 0
    /// Frames retransmitted.
    public var retransmissions = 0
    /// Losses the link recovered from (NAK-driven resends and retransmission timeouts).
    public var recoveries = 0
    /// The largest lookahead used, seconds.
    public var lookahead = 0.0
    /// Board-side underruns and late batches since `start()` (the board's
    /// totals from its last status report, less those at the start).
    public var boardUnderruns = 0
    public var lateSegments = 0
    /// From ``HapticEngine/reportWithBoardStatus(timeout:)``: whether the board answered the
    /// status it asked for (else the board's counters are those of an earlier status).
    public var boardStatusAnswered = false
    /// Board seconds at which the drive sent last came to rest: the start of the first frame of
    /// zero drive with every actuator at rest (as the host models it) after the last frame that
    /// drove or braked; nil while nothing has driven. Less an advanced player's
    /// ``HapticAdvancedPatternPlayer/startTime`` it is the drive duration, the same as a
    /// render's (docs/semantics.md §5.1).
    public var driveEnd: Double?
    /// The onsets of the drive sent, in board time: where a channel's drive went from level 0
    /// to non-zero, the first 1 024 (re-rendered drive replaces what it superseded). With no
    /// late batch on the board (``lateSegments`` 0) the board drove each at exactly this time.
    public var onsets: [DriveOnset] = []
  }

  /// Where a channel's drive starts after a silence (``Report/onsets``).
  public struct DriveOnset: Sendable, Hashable {
    /// Board seconds: the start of the frame.
    public var time: Double
    /// The channel.
    public var channel: Int
  }

  /// The board link.
  public let link: any BoardLink
  /// The board's capabilities (from the probe).
  public var capabilities: BoardCapabilities { link.capabilities }
  /// The renderer profile in use.
  public var profile: BoardProfile { link.profile }
  let configuration: Configuration
  /// What the engine's threads share.
  let state = Locked(State())
  /// The board's order: held while batches are computed and sent (``computeAndSend(_:)``),
  /// always before ``state``.
  let sendOrder = Lock()
  /// What the loop sleeps on between passes (``wakeLoop()`` ends the sleep early).
  let loopWake = DispatchSemaphore(value: 0)
  /// Seconds per board frame, and board ticks per frame.
  let framePeriod: Double
  let ticksPerFrame: UInt64
  /// Players whose objects were deallocated, not yet marked in `players`. Its own lock, never
  /// the engine's: a player can be deallocated while the engine's state is locked (a handler
  /// that captured it, dropped under the lock), and a lock does not nest.
  let releasedIDs = Locked<[Int]>([])
  /// The frame grid's offset on the board's clock, in ticks (`+FrameGrid`): a leaf lock, read
  /// with or without the others held.
  let gridOffset = Locked<UInt64>(0)

  /// An engine over `link`.
  ///
  /// - Throws: `notSupported` when the board has no actuator.
  public init(link: any BoardLink, configuration: Configuration = Configuration()) throws(HapticEngineError) {
    guard link.capabilities.channels.contains(where: { $0.kind != .none }) else {
      throw HapticEngineError(.notSupported, "\(link.capabilities.boardID): no actuator reported")
    }
    if let problem = link.profile.problem {
      throw HapticEngineError(.notSupported, "\(link.capabilities.boardID): \(problem)")
    }
    self.link = link
    self.configuration = configuration
    framePeriod = link.profile.framePeriod
    ticksPerFrame = UInt64((link.profile.framePeriod * Double(link.capabilities.clockFrequency)).rounded())
    link.setEventHandler { [weak self] event in self?.handle(event) }
    link.setMessageHandler { [weak self] message in self?.handle(message) }
  }

  /// An engine dropped without ``close()`` stops its loop and closes its link: the loop holds
  /// the engine only while it works, never while it sleeps, so dropping the last reference
  /// frees it (an engine made per view and never closed no longer leaks two threads).
  deinit {
    state.withLock {
      $0.running = false
      $0.loopStop = true
      $0.loopGeneration += 1
    }
    loopWake.signal()
    link.close(stopDrive: true)
  }

  /// An engine on the board at a serial port or pseudo-terminal, found at one of `rates` (by
  /// default the built-in boards' rates: HapticTransport's `LineRates.builtIn`).
  ///
  /// - Parameters:
  ///   - port: the port: a serial port, a pseudo-terminal, `tcp://HOST:PORT` or
  ///     `rfc2217://HOST:PORT`.
  ///   - rates: the rates the board may talk at, tried in turn.
  ///   - configuration: the engine's settings.
  ///   - clockInterval: seconds between clock queries once synchronised (nil: the link's
  ///     default, about one a second; a rig asks ten a second).
  ///   - clockSettledInterval: seconds between them once the fit has settled on a board behind a
  ///     fast line (nil: always `clockInterval`; a rig's boards on local pseudo-terminals are
  ///     asked twice a second).
  ///   - profileFor: the renderer profile for the probed board and its identity (nil: the one
  ///     its capabilities imply).
  public static func serial(
    port: String, rates: LineRates = .builtIn, configuration: Configuration = Configuration(), clockInterval: Double? = nil,
    clockSettledInterval: Double? = nil,
    profileFor: @Sendable (BoardCapabilities, BoardIdentity) -> BoardProfile? = { _, _ in nil }
  ) throws(HapticEngineError) -> HapticEngine {
    try HapticEngine(
      link: try SerialBoardLink(
        port: port, rates: rates, clockInterval: clockInterval, clockSettledInterval: clockSettledInterval,
        reactor: configuration.reactor, profileFor: profileFor),
      configuration: configuration)
  }

  // MARK: Properties

  /// Called when the engine stops without being asked to (not after ``stop()``).
  public var stoppedHandler: (@Sendable (HapticEngineStoppedReason) -> Void)? {
    get { state.withLock { $0.handlers.stopped } }
    set { state.withLock { $0.handlers.stopped = newValue } }
  }

  /// Called after the board restarted or reconnected: players are invalid, recreate them and
  /// start the engine again (Core Haptics' contract).
  public var resetHandler: (@Sendable () -> Void)? {
    get { state.withLock { $0.handlers.reset } }
    set { state.withLock { $0.handlers.reset = newValue } }
  }

  /// Called with every status the board answers (``requestStatus()``), on the link's thread:
  /// its latched watchdog flag, faults and counters.
  public var statusHandler: (@Sendable (BoardStatus) -> Void)? {
    get { state.withLock { $0.handlers.status } }
    set { state.withLock { $0.handlers.status = newValue } }
  }

  /// Stop after ``Configuration/idleTimeout`` without playing; the next player start restarts.
  public var isAutoShutdownEnabled: Bool {
    get { state.withLock { $0.handlers.autoShutdown } }
    set { state.withLock { $0.handlers.autoShutdown = newValue } }
  }

  /// Mute every player (they keep their place).
  public var isMutedForHaptics: Bool {
    get { state.withLock { $0.handlers.muted } }
    set {
      computeAndSend {
        state.withLock { state -> (batches: [StreamScheduler.Batch], result: Void) in
          state.handlers.muted = newValue
          guard state.running, let (now, least) = changeClock() else { return ([], ()) }
          return (fittedModify(&state.scheduler, now: now, least: least) { $0.muted = newValue }, ())
        }
      }
    }
  }

  /// Ignore audio events (they play only with an ``Configuration/audioOutput``); takes effect
  /// for players started afterwards. Default false, as Apple's.
  public var playsHapticsOnly: Bool {
    get { state.withLock { $0.audio.hapticsOnly } }
    set { state.withLock { $0.audio.hapticsOnly = newValue } }
  }

  /// Mute every player's audio (what is scheduled is silenced; later starts play none).
  public var isMutedForAudio: Bool {
    get { state.withLock { $0.audio.muted } }
    set {
      let ids = state.withLock { state -> [Int] in
        state.audio.muted = newValue
        return newValue ? Array(state.players.keys) : []
      }
      for id in ids { configuration.audioOutput?.cancel(tag: id, after: 0) }
    }
  }

  /// Board seconds now (clock sync), or 0 before the clock is known.
  public var currentTime: Double {
    engineSeconds(atHost: link.hostNow) ?? 0
  }

  /// Whether the engine is running.
  public var isRunning: Bool { state.withLock { $0.running } }

  /// What the engine did so far: this run's rendering, or once stopped (by the client, a board
  /// reset or a disconnect) the last run's, until it starts again.
  public var report: Report {
    let statistics = link.statistics
    return state.withLock { state in
      var report = Report()
      if let counters = state.scheduler?.counters ?? state.countersAtHalt {
        report.framesRendered = counters.framesRendered
        report.segments = counters.segments
        report.replaces = counters.replaces
        report.underruns = counters.underruns
        report.driveEnd = counters.restFrame.map { Double($0) * framePeriod }
        report.onsets = counters.onsets.map { DriveOnset(time: Double($0.frame) * framePeriod, channel: $0.channel) }
      }
      report.wireBytes = statistics.bytesSent
      report.retransmissions = statistics.retransmissions
      report.recoveries = statistics.recoveries
      report.lookahead = Double(state.lookaheadPeak) * framePeriod
      if let last = state.lastStatus {
        // Per channel, modulo 2¹⁶ (the board's counters wrap).
        let first = state.statusAtStart?.channels ?? []
        for (index, channel) in last.channels.enumerated() {
          let base = index < first.count ? first[index] : nil
          report.boardUnderruns += Int(channel.underruns &- (base?.underruns ?? 0))
          report.lateSegments += Int(channel.lateSegments &- (base?.lateSegments ?? 0))
        }
      }
      return report
    }
  }

  /// The board frame now (nil before clock sync). With the state locked or not: reads the link.
  func nowFrame() -> Int? {
    guard let seconds = engineSeconds(atHost: link.hostNow) else { return nil }
    return Int((seconds / framePeriod).rounded(.down))
  }

  /// The board frame of engine time `t` (board seconds); "now" for 0 or the past.
  func frame(at t: Double, now: Int) -> Int {
    guard t > 0 else { return now }
    return max(Int((t / framePeriod).rounded()), now)
  }
}
