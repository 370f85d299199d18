import Dispatch
import Foundation
import HapticCore
import HapticRenderer
import HapticWire
import HapticLocks
import HapticTransport

extension HapticEngine {
  /// Starts the engine: waits for clock sync (up to ``Configuration/startTimeout``) and starts
  /// the scheduler loop (a thread; not on a virtual-clock link, where ``advance(to:)`` drives).
  public func start() throws(HapticEngineError) {
    if isRunning { return }
    var frame = nowFrame()
    let deadline = link.hostNow + configuration.startTimeout
    while frame == nil {
      try checkClockWait(deadline: deadline)
      usleep(2_000)
      frame = nowFrame()
    }
    try startNow(frame: frame ?? 0)
  }

  /// `start()` for async callers: waits for clock sync by suspending, never blocking a
  /// cooperative thread.
  public func start() async throws(HapticEngineError) {
    if isRunning { return }
    var frame = nowFrame()
    let deadline = link.hostNow + configuration.startTimeout
    while frame == nil {
      try checkClockWait(deadline: deadline)
      do {
        try await Task.sleep(nanoseconds: 2_000_000)
      } catch {
        throw HapticEngineError(.engineStartTimeout, "\(capabilities.boardID): start cancelled while waiting for clock sync")
      }
      frame = nowFrame()
    }
    try startNow(frame: frame ?? 0)
  }

  /// Throws once waiting for the clock is hopeless (past `deadline`, or a virtual clock that
  /// only ``advance(to:)`` moves).
  private func checkClockWait(deadline: Double) throws(HapticEngineError) {
    if link.hostNow > deadline || isVirtual {
      throw HapticEngineError(.engineStartTimeout, "\(capabilities.boardID): no clock sync with the board")
    }
  }

  /// Starts the scheduler at board frame `frame` (clock sync known).
  func startNow(frame: Int) throws(HapticEngineError) {
    if isRunning { return }
    let scheduler: StreamScheduler
    do {
      scheduler = try StreamScheduler(
        profile: profile, startFrame: frame, lookahead: Int((configuration.lookahead / framePeriod).rounded()),
        guardFrames: Int((guardSeconds / framePeriod).rounded(.up)),
        queueDepth: Int(capabilities.queueDepth))
    } catch {
      throw HapticEngineError(.serverInitFailed, error.description)
    }
    let hostNow = link.hostNow
    let started = state.withLock { state -> Bool in
      // Another thread's start got there first.
      guard !state.running else { return false }
      var scheduler = scheduler
      // Valid players carry over a stop/start (they start idle).
      for (id, player) in state.players where !player.invalid {
        var track = PlayerTrack(id: id, pattern: player.pattern, profile: profile, channels: player.channels)
        if let loop = player.loop {
          track.loopEnabled = loop.enabled
          track.loopEnd = loop.end
        }
        track.restore(rate: player.rate, muted: player.muted)
        scheduler.add(track)
      }
      state.scheduler = scheduler
      state.lookaheadPeak = scheduler.lookahead
      // The board's counters run since its boot: the report counts from this status on.
      state.statusAtStart = nil
      state.lastStatus = nil
      state.statusAtStartPending = true
      state.running = true
      state.idleSince = hostNow
      state.loopStop = false
      state.loopGeneration += 1
      return true
    }
    guard started else { return }
    requestStatus()
    guard !isVirtual else { return }
    let token = LoopThread(reactor: configuration.reactor)
    let generation = state.withLock { state -> Int in
      state.loop = token
      return state.loopGeneration
    }
    if let reactor = configuration.reactor {
      let id = reactor.add(PassSource(engine: self, generation: generation))
      token.registration.withLock { $0 = id }
      return
    }
    // The thread holds the engine weakly: strongly only for one pass, never while it sleeps.
    let thread = Thread { [weak self] in
      // Named from the thread itself: on Linux, Foundation names only the current thread.
      Thread.current.name = "HapticEngine"
      token.id.withLock { $0 = UInt(pthread_self()) }
      defer { token.markEnded() }
      while true {
        let next = { () -> (DispatchSemaphore, Double)? in
          guard let engine = self else { return nil }
          return engine.loopPass(generation: generation)
        }()
        guard let (wake, seconds) = next else { return }
        _ = wake.wait(timeout: .now() + seconds)
      }
    }
    thread.name = "HapticEngine"
    thread.qualityOfService = .userInteractive
    thread.start()
  }

  /// Stops the engine: every player stops, the board's drive stops at once. Does not call the
  /// stopped handler (Core Haptics' rule).
  public func stop() {
    halt()
    silenceAudio()
    // After any batch still being sent (an action on another thread), never before it.
    sendInOrder(.stop(channels: 0xFF))
  }

  /// Closes the board link (stopping the drive); the engine cannot start again.
  public func close() {
    halt()
    silenceAudio()
    sendOrder.withLock { link.close(stopDrive: true) }
  }

  var isVirtual: Bool { link.isVirtual }

  /// Virtual-clock links only: moves host time to `t`, running the board and the scheduler at
  /// its cadence on the way (deterministic tests).
  public func advance(to t: Double) {
    guard link.isVirtual else { return }
    var time = link.hostNow
    while time < t {
      time = min(time + configuration.cadence, t)
      link.advance(to: time)
      tick()
    }
  }

  /// Stops the loop and the players without touching the board.
  func halt() {
    let loop = state.withLock { state -> LoopThread? in
      state.running = false
      state.loopStop = true
      state.loopGeneration += 1
      if let counters = state.scheduler?.counters { state.countersAtHalt = counters }
      state.scheduler = nil
      for id in state.players.keys { state.players[id]?.reported = true }
      defer { state.loop = nil }
      return state.loop
    }
    wakeLoop()
    guard let loop else { return }
    if let reactor = loop.reactor {
      // Not called again once removed (a pass under way on another thread is waited for); a
      // pass source added after this finds its generation gone and leaves.
      if let id = loop.registration.withLock({ $0 }) { reactor.remove(id) }
    } else if loop.id.withLock({ $0 }) != UInt(pthread_self()) {
      // Wait for the loop thread to end, unless this is it (a stop from a handler it runs).
      while !loop.hasEnded { usleep(200) }
    }
  }

  /// One pass of the scheduler loop of `generation`: a tick, then what to sleep on and for how
  /// long; `nil` when the loop must end (stopped, or a newer loop took over). While anything
  /// plays, a pass comes when the queue falls to half the lookahead or a player's end is played
  /// (``StreamScheduler/nextPass(now:)``; at least 1 ms and at most ``longestPlayingSleep``
  /// apart), every ``Configuration/idleCadence`` while nothing does. Changes never wait for a
  /// pass: they are sent when they are made. Sleeping until the next deadline rather than
  /// polling keeps the thread's wake-ups (most of its CPU time) to about two per lookahead.
  func loopPass(generation: Int) -> (DispatchSemaphore, Double)? {
    guard pass(generation: generation) else { return nil }
    return (loopWake, sleepUntilNextPass())
  }

  /// A tick of the loop of `generation` (`early`: frames before its due time it may refill);
  /// false when that loop must end.
  func pass(generation: Int, early: Int = 0) -> Bool {
    func current() -> Bool { state.withLock { !$0.loopStop && $0.loopGeneration == generation } }
    guard current() else { return false }
    tick(early: early)
    return current()
  }

  /// The longest the loop sleeps while something plays, seconds.
  static let longestPlayingSleep = 0.050

  /// Ends the loop's sleep now (a player started on a quiet engine: its queue must be refilled
  /// long before the idle period is over).
  func wakeLoop() {
    if let reactor = configuration.reactor, !isVirtual {
      reactor.wake()
    } else {
      loopWake.signal()
    }
  }

  /// Seconds until the next pass is due: while nothing plays, the idle cadence, or the idle
  /// timeout's moment when auto-shutdown is on and it comes sooner.
  func sleepUntilNextPass() -> Double {
    let now = nowFrame()
    let hostNow = link.hostNow
    return state.withLock { state in
      guard let scheduler = state.scheduler, let now, let due = scheduler.nextPass(now: now) else {
        guard state.handlers.autoShutdown, let since = state.idleSince else { return configuration.idleCadence }
        return min(configuration.idleCadence, max(since + configuration.idleTimeout - hostNow, 0.001))
      }
      let seconds = Double(due - now) * framePeriod
      return min(max(seconds, 0.001), Self.longestPlayingSleep)
    }
  }

  /// One scheduler pass: render ahead (refilling up to `early` frames before the refill is due:
  /// a shared reactor's pass for several boards at once), send, report finished players, idle
  /// shutdown.
  func tick(early: Int = 0) {
    var completions: [(@Sendable ((any Error)?) -> Void)] = []
    var notify: [@Sendable ((any Error)?) -> HapticEngineFinishedAction] = []
    var stops: [(@Sendable ((any Error)?) -> Void)?] = []
    var marks: [(id: Int, mark: AudioMark)] = []
    var idleStop = false
    computeAndSend { () -> (batches: [StreamScheduler.Batch], result: Void) in
      // Read inside the board's order: a pass that waited for another's sending renders from
      // the frame the board is at now, not from where it was when the pass began.
      guard let now = nowFrame() else { return ([], ()) }
      let statistics = link.statistics
      let hostNow = link.hostNow
      return state.withLock { state -> (batches: [StreamScheduler.Batch], result: Void) in
        // Moved out (not copied), so its buffers stay uniquely referenced and mutate in place.
        guard state.running, var scheduler = state.scheduler.take() else { return ([], ()) }
        defer { state.scheduler = scheduler }
        scheduler.lookahead = lookahead(for: statistics)
        state.lookaheadPeak = max(state.lookaheadPeak, scheduler.lookahead)
        let batches = scheduler.tick(now: now, early: early)
        // Taken even without an output, so they do not pile up.
        let taken = scheduler.takeAudioMarks()
        if configuration.audioOutput != nil { marks = taken }
        // Players whose end the board has played.
        var anyActive = false
        for track in scheduler.tracks {
          // A finish before a restart that has not yet taken effect is not this run's.
          if let end = track.finishedAt, end <= now, state.players[track.id]?.reported == false, !track.startsAgain {
            state.players[track.id]?.reported = true
            if let handler = state.players[track.id]?.completion { completions.append(handler) }
          }
          if track.state == .playing || track.state == .paused || !track.actions.isEmpty { anyActive = true }
          if let end = track.finishedAt, end > now { anyActive = true }
        }
        if !anyActive {
          notify = state.finishHandlers
          state.finishHandlers = []
          // A stop waits for the drive to come to rest too (a brake after the last sound).
          if scheduler.isQuiet {
            stops = state.stopRequests
            state.stopRequests = []
          }
        }
        if anyActive || !scheduler.isQuiet {
          state.idleSince = hostNow
        } else if state.handlers.autoShutdown, let since = state.idleSince, hostNow - since >= configuration.idleTimeout {
          idleStop = true
        }
        return (batches, ())
      }
    }
    route(marks)
    forgetReleasedPlayers()
    for completion in completions { completion(nil) }
    finish(notify: notify, stops: stops)
    if idleStop {
      halt()
      state.withLock { $0.handlers.stopped }?(.idleTimeout)
    }
  }
}
