public import HapticCore
import HapticLocks
import HapticRenderer
import HapticEngine

/// What a client asks of a player it made.
public enum PlayerAction: Sendable, Equatable {
  /// Start (a playing player restarts) `delay` seconds from now, at `offset` into the pattern.
  case start(delay: Double, offset: Double)
  /// Stop `delay` seconds from now.
  case stop(delay: Double)
  case pause
  case resume
  /// Jump to `offset` pattern seconds.
  case seek(offset: Double)
  /// Loop, where a loop wraps and the rate; nil keeps each.
  case set(loop: Bool?, loopEnd: Double?, rate: Double?)
  /// Dynamic parameters from now (intensity, sharpness, attack, decay, release).
  case parameters([DynamicParameter])
}

extension BoardHub {
  /// Makes a player of `pattern` on board `id` (described to clients as `source`), set up and
  /// started as `options` say, owned by WebSocket client `owner` if any.
  ///
  /// - Throws: ``ServerError`` `notFound` (board), `tooMany` (``maxPlayers`` kept, none done),
  ///   `boardFailed` (the engine refused the pattern or the start).
  public func createPlayer(
    on id: String, pattern: HapticPattern, source: String, options: PlayerOptions, owner: Int? = nil
  ) throws(ServerError) -> PlayerInfo {
    let board = try running(id)
    let player: HapticAdvancedPatternPlayer
    do {
      player = try board.engine.makeAdvancedPlayer(with: pattern, channels: options.channels)
    } catch {
      throw ServerError(.boardFailed, field: id, "\(error)")
    }
    player.loopEnabled = options.loop
    player.loopEnd = options.loopEnd
    player.playbackRate = options.rate
    // Make room first (dropping done players), so a refusal leaves nothing behind.
    let number = try reserve()
    player.completionHandler = { [weak self] error in self?.completed(number, error: error) }
    let served = ServedPlayer(
      id: number, board: id, channels: options.channels ?? Array(board.profile.channels.indices), source: source,
      player: player, owner: owner)
    state.withLock { $0.players[number] = served }
    if options.start {
      do {
        try start(player, on: board.engine, delay: options.delay, offset: options.offset)
      } catch {
        _ = state.withLock { $0.players.removeValue(forKey: number) }
        throw error
      }
    }
    let info = served.info
    events.publish(.player(change: "created", info))
    return info
  }

  /// Plays `pattern` on board `id` now and forgets the player (the engine plays a released
  /// player to its end): nothing is held per play. Returns the play's number (its own count,
  /// not a player's).
  ///
  /// - Throws: ``ServerError`` `notFound` (board), `boardFailed` (the engine refused).
  public func play(_ pattern: HapticPattern, on id: String) throws(ServerError) -> Int {
    let engine = try running(id).engine
    do {
      try engine.makePlayer(with: pattern).start(atTime: 0)
    } catch {
      throw ServerError(.boardFailed, field: id, "\(error)")
    }
    return state.withLock { state in
      defer { state.nextPlay += 1 }
      return state.nextPlay
    }
  }

  /// A number for a new player, dropping the oldest done players when ``maxPlayers`` are kept.
  private func reserve() throws(ServerError) -> Int {
    let kept = state.withLock { $0.players }
    var dropped: [ServedPlayer] = []
    if kept.count >= Self.maxPlayers {
      let done = kept.values.filter(\.isDone).sorted { $0.id < $1.id }
      dropped = Array(done.prefix(kept.count - Self.maxPlayers + 1))
    }
    let number = state.withLock { state -> Int? in
      for player in dropped { state.players.removeValue(forKey: player.id) }
      guard state.players.count < Self.maxPlayers else { return nil }
      defer { state.nextPlayer += 1 }
      return state.nextPlayer
    }
    withExtendedLifetime(dropped) {}
    guard let number else {
      throw ServerError(
        .tooMany, field: "players", "\(Self.maxPlayers) players are kept and none is done: delete some first")
    }
    return number
  }

  private func start(
    _ player: HapticAdvancedPatternPlayer, on engine: HapticEngine, delay: Double, offset: Double
  ) throws(ServerError) {
    do {
      let time = delay > 0 ? engine.currentTime + delay : 0
      try player.start(atTime: time)
      if offset > 0 { try player.seek(toOffset: offset, atTime: time) }
    } catch {
      throw ServerError(.boardFailed, field: "start", "\(error)")
    }
  }

  /// Player `number` as clients see it now.
  public func player(_ number: Int) throws(ServerError) -> PlayerInfo {
    try kept(number).info
  }

  /// Every player kept, by number.
  public var players: [PlayerInfo] {
    state.withLock { Array($0.players.values) }.sorted { $0.id < $1.id }.map(\.info)
  }

  func kept(_ number: Int) throws(ServerError) -> ServedPlayer {
    guard let served = state.withLock({ $0.players[number] }) else {
      throw ServerError(.notFound, field: "player", "no player \(number)")
    }
    return served
  }

  /// Does `action` to player `number`; returns it as it is then.
  public func control(_ number: Int, _ action: PlayerAction) throws(ServerError) -> PlayerInfo {
    if let announced = try apply(number, action) { return announced }
    return try kept(number).info
  }

  /// Does `action` to player `number`: the player as announced (nil for live parameters, which
  /// are not announced: a client sending them 60 times a second with no reply wanted costs no
  /// description of the player).
  @discardableResult
  func apply(_ number: Int, _ action: PlayerAction) throws(ServerError) -> PlayerInfo? {
    let served = try kept(number)
    let player = served.player
    let engine = try self.served(served.board).engine
    let change: String
    do {
      switch action {
      case .start(let delay, let offset):
        state.withLock { state in
          state.players[number]?.failure = nil
          state.players[number]?.ended = false
        }
        try start(player, on: engine, delay: delay, offset: offset)
        change = "started"
      case .stop(let delay):
        try player.stop(atTime: delay > 0 ? engine.currentTime + delay : 0)
        change = "stopped"
      case .pause:
        try player.pause(atTime: 0)
        change = "paused"
      case .resume:
        try player.resume(atTime: 0)
        change = "resumed"
      case .seek(let offset):
        try player.seek(toOffset: offset)
        change = "sought"
      case .set(let loop, let loopEnd, let rate):
        if let loop { player.loopEnabled = loop }
        if let loopEnd { player.loopEnd = loopEnd }
        if let rate { player.playbackRate = rate }
        change = "changed"
      case .parameters(let parameters):
        try player.sendParameters(parameters, atTime: 0)
        // Live parameters are too frequent to announce (60 Hz per client).
        return nil
      }
    } catch let error as ServerError {
      throw error
    } catch {
      throw ServerError(.boardFailed, field: "player", "player \(number): \(error)")
    }
    let info = try kept(number).info
    events.publish(.player(change: change, info))
    return info
  }

  /// Stops player `number` and forgets it.
  public func remove(_ number: Int) throws(ServerError) {
    guard let served = state.withLock({ $0.players.removeValue(forKey: number) }) else {
      throw ServerError(.notFound, field: "player", "no player \(number)")
    }
    try? served.player.stop(atTime: 0)
    var info = served.info
    if info.state != "failed" { info.state = "finished" }
    events.publish(.player(change: "deleted", info))
  }

  /// Stops and forgets every player of WebSocket client `owner` (it left).
  public func removePlayers(of owner: Int) {
    let numbers = state.withLock { $0.players.values.filter { $0.owner == owner }.map(\.id) }
    for number in numbers { try? remove(number) }
  }

  /// Makes WebSocket client `owner` the owner of player `number` (stopped when it leaves).
  public func adopt(_ number: Int, by owner: Int) throws(ServerError) -> PlayerInfo {
    let found = state.withLock { state -> Bool in
      guard state.players[number] != nil else { return false }
      state.players[number]?.owner = owner
      return true
    }
    guard found else { throw ServerError(.notFound, field: "player", "no player \(number)") }
    let info = try player(number)
    events.publish(.player(change: "adopted", info))
    return info
  }

  /// A player's completion: finished, or failed with `error` (the board reset or went away).
  private func completed(_ number: Int, error: (any Error)?) {
    let served = state.withLock { state -> ServedPlayer? in
      guard let served = state.players[number], !served.ended, served.failure == nil else { return nil }
      if let error { state.players[number]?.failure = "\(error)" } else { state.players[number]?.ended = true }
      return state.players[number]
    }
    guard let served else { return }
    events.publish(.player(change: error == nil ? "finished" : "failed", served.info))
  }
}
