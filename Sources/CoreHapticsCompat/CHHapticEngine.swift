public import Foundation
public import HapticAudio
import HapticBoards
import HapticEngineSimulator
import HapticWire
import HapticCore
public import HapticEngine
import HapticRenderer
import HapticTransport

/// Core Haptics' engine (Apple's `CHHapticEngine`) over a hapticctl board: the simulator by
/// default, or the board at `$HAPTICCTL_PORT` (docs/semantics.md §16). A thin layer over
/// `HapticEngine`: the same engine, players and semantics under Apple's names.
public final class CHHapticEngine: Sendable {
  /// Why the engine stopped (Apple's `CHHapticEngine.StoppedReason`, raw values included).
  public enum StoppedReason: Int, Sendable {
    case audioSessionInterrupt = 1
    case applicationSuspended = 2
    case idleTimeout = 3
    case notifyWhenFinished = 4
    case engineDestroyed = 5
    case gameControllerDisconnect = 6
    case systemError = -1
  }

  /// What to do once every player has finished (Apple's `CHHapticEngine.FinishedAction`).
  public enum FinishedAction: Int, Sendable {
    case stopEngine = 1
    case leaveEngineRunning = 2
  }

  public typealias StoppedHandler = (StoppedReason) -> Void
  public typealias ResetHandler = () -> Void
  public typealias CompletionHandler = ((any Error)?) -> Void
  public typealias FinishedHandler = ((any Error)?) -> FinishedAction

  /// The hapticctl engine underneath.
  public let engine: HapticEngine
  /// Where audio events play (closed when this engine is deallocated), if anywhere.
  let audioOutput: (any AudioOutput)?
  private let handlers = Handlers()

  /// The client's handlers, set from any thread and called from the engine's. Unchecked: its
  /// two vars are read and written only under `lock`; the closures are Apple's non-`Sendable`
  /// handler types, called on the engine's threads as Core Haptics calls them on its queue.
  private final class Handlers: @unchecked Sendable {
    private let lock = NSLock()
    private var stoppedHandler: StoppedHandler = { _ in }
    private var resetHandler: ResetHandler = {}
    var stopped: StoppedHandler {
      get { lock.withLock { stoppedHandler } }
      set { lock.withLock { stoppedHandler = newValue } }
    }
    var reset: ResetHandler {
      get { lock.withLock { resetHandler } }
      set { lock.withLock { resetHandler = newValue } }
    }
  }

  /// An engine on the configured board: `$HAPTICCTL_PORT` names a serial port or pty with a
  /// hapticctl board (its board file, built in or from `$HAPTICCTL_BOARDS_PATH`, sets the
  /// rendering); otherwise the in-process simulator of `$HAPTICCTL_BOARD` (default `sim-lra`).
  /// Audio events play on the ALSA device `$HAPTICCTL_AUDIO_DEVICE` (default `default`), into
  /// the WAV file `$HAPTICCTL_AUDIO_OUT` instead, or nowhere with `HAPTICCTL_AUDIO=off` (or
  /// when no device opens: `supportsAudio` is then false). Variables not set are taken from the
  /// settings file, `$HAPTICCTL_CONFIG` or `~/.config/hapticctl/engine.json`: a JSON object
  /// such as `{"port": "/dev/ttyACM0", "board": "…", "boards_path": […], "audio": "off",
  /// "audio_out": "…", "audio_device": "…"}`.
  ///
  /// - Throws: `notSupported` when the board has no actuator, `serverInitFailed` when the port
  ///   cannot be opened or probed, `invalidEngineParameter` for an unknown board id or a bad
  ///   settings file (naming the file and the entry).
  public convenience init() throws(CHHapticError) {
    try self.init(environment: ProcessInfo.processInfo.environment)
  }

  /// An engine configured from `environment` as ``init()`` is from the process's (the settings
  /// file included: `HAPTICCTL_CONFIG` or `HOME` in `environment` find it).
  public convenience init(environment given: [String: String]) throws(CHHapticError) {
    let environment = try EngineSettings.merged(given)
    let catalog = BoardCatalog.load(folders: BoardCatalog.searchPath([], environment: environment))
    var configuration = HapticEngine.Configuration()
    let output = Self.audioOutput(environment)
    configuration.audioOutput = output
    let engine: HapticEngine
    if let port = environment["HAPTICCTL_PORT"], !port.isEmpty {
      engine = try bridged { () throws(HapticEngineError) in
        try HapticEngine.serial(
          port: port, rates: LineRates(boards: catalog.linkRates), configuration: configuration,
          profileFor: { capabilities, _ in catalog.board(capabilities.boardID)?.profile })
      }
    } else {
      let id = environment["HAPTICCTL_BOARD"].flatMap { $0.isEmpty ? nil : $0 } ?? "sim-lra"
      guard let board = catalog.board(id) else {
        try? output?.close()
        throw CHHapticError(
          .invalidEngineParameter, "unknown board '\(id)' (known: \(catalog.boards.map(\.id).joined(separator: ", ")))")
      }
      engine = try bridged { () throws(HapticEngineError) in
        try HapticEngine.simulated(profile: board.profile, configuration: configuration)
      }
    }
    self.init(engine: engine, audioOutput: output)
  }

  /// The audio output `environment` asks for (see ``init()``), or `nil`.
  static func audioOutput(_ environment: [String: String]) -> (any AudioOutput)? {
    if environment["HAPTICCTL_AUDIO"] == "off" { return nil }
    if let file = environment["HAPTICCTL_AUDIO_OUT"], !file.isEmpty {
      return AudioFileSink(path: file, clock: { AudioClock.now() })
    }
    return try? ALSAOutput(device: environment["HAPTICCTL_AUDIO_DEVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default")
  }

  /// Wraps a hapticctl engine; `audioOutput` (the one in its configuration, if any) is closed
  /// when this engine is deallocated.
  public init(engine: HapticEngine, audioOutput: (any AudioOutput)? = nil) {
    self.engine = engine
    self.audioOutput = audioOutput
    engine.stoppedHandler = { [handlers] reason in handlers.stopped(StoppedReason(reason)) }
    engine.resetHandler = { [handlers] in handlers.reset() }
  }

  deinit {
    engine.close()
    try? audioOutput?.close()
  }

  /// Called when the engine stops without being asked to (not after `stop`).
  public var stoppedHandler: StoppedHandler {
    get { handlers.stopped }
    set { handlers.stopped = newValue }
  }

  /// Called after the board restarted: recreate the players and start again.
  public var resetHandler: ResetHandler {
    get { handlers.reset }
    set { handlers.reset = newValue }
  }

  /// The engine's clock (board seconds) that every `atTime:` is in.
  public var currentTime: TimeInterval { engine.currentTime }
  /// Stop after two minutes idle; the next player start restarts.
  public var isAutoShutdownEnabled: Bool {
    get { engine.isAutoShutdownEnabled }
    set { engine.isAutoShutdownEnabled = newValue }
  }
  /// Mute every player's haptics.
  public var isMutedForHaptics: Bool {
    get { engine.isMutedForHaptics }
    set { engine.isMutedForHaptics = newValue }
  }
  /// Mute every player's audio.
  public var isMutedForAudio: Bool {
    get { engine.isMutedForAudio }
    set { engine.isMutedForAudio = newValue }
  }
  /// Ignore audio events (players started afterwards). Default false.
  public var playsHapticsOnly: Bool {
    get { engine.playsHapticsOnly }
    set { engine.playsHapticsOnly = newValue }
  }
  /// Ignore haptic events: the haptics of every player are muted while it is set. Default false.
  public var playsAudioOnly: Bool {
    get { engine.isMutedForHaptics }
    set { engine.isMutedForHaptics = newValue }
  }

  /// Registers an audio file (WAV, CAF, … read through libsndfile) for
  /// `CHHapticEvent(audioResourceID:…)`; options `CHHapticAudioResourceKey.useVolumeEnvelope`
  /// (default true) and `.loopEnabled` (default false).
  ///
  /// - Throws: `fileNotFound` for a missing file, `invalidAudioResource` for one that is not
  ///   audio (the message says why).
  public func registerAudioResource(_ resourceURL: URL, options: [AnyHashable: Any] = [:]) throws(CHHapticError)
    -> CHHapticAudioResourceID
  {
    try AudioResources.shared.register(resourceURL, options: options)
  }

  /// Forgets a registered resource (`invalidAudioResource` when it is not registered).
  public func unregisterAudioResource(_ resourceID: CHHapticAudioResourceID) throws(CHHapticError) {
    try AudioResources.shared.unregister(resourceID)
  }

  /// Starts the engine (blocking until the board's clock is known).
  public func start() throws(CHHapticError) {
    try bridged { () throws(HapticEngineError) in try engine.start() }
  }

  /// Starts the engine and calls `completionHandler` with the outcome, on another thread.
  public func start(completionHandler: CompletionHandler? = nil) {
    let box = UncheckedBox(completionHandler)
    DispatchQueue.global().async { [self] in
      var failure: CHHapticError?
      do throws(CHHapticError) { try start() } catch { failure = error }
      box.value?(failure)
    }
  }

  /// `start()` for async callers: waits for the board's clock by suspending, never blocking a
  /// cooperative thread.
  public func start() async throws(CHHapticError) {
    do {
      try await engine.start()
    } catch {
      throw CHHapticError(error)
    }
  }

  /// Stops once what was started has played (and the drive is at rest), then calls
  /// `completionHandler`; does not call the stopped handler.
  public func stop(completionHandler: CompletionHandler? = nil) {
    let box = UncheckedBox(completionHandler)
    engine.stop { error in box.value?(error) }
  }

  /// ``stop(completionHandler:)`` for async callers: returns once stopped.
  public func stop() async throws(CHHapticError) {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      engine.stop { _ in continuation.resume() }
    }
  }

  /// Calls `finishedHandler` once every player has finished (at once when none plays).
  public func notifyWhenPlayersFinished(finishedHandler: @escaping FinishedHandler) {
    let box = UncheckedBox(finishedHandler)
    engine.notifyWhenPlayersFinished { error in
      box.value(error) == .stopEngine ? .stopEngine : .leaveEngineRunning
    }
  }

  /// A player for `pattern`.
  public func makePlayer(with pattern: CHHapticPattern) throws(CHHapticError) -> any CHHapticPatternPlayer {
    CHPatternPlayer(try bridged { () throws(HapticEngineError) in try engine.makePlayer(with: pattern.model) })
  }

  /// An advanced player (pause, resume, seek, loop, rate, completion) for `pattern`.
  public func makeAdvancedPlayer(with pattern: CHHapticPattern) throws(CHHapticError) -> any CHHapticAdvancedPatternPlayer {
    CHAdvancedPatternPlayer(try bridged { () throws(HapticEngineError) in try engine.makeAdvancedPlayer(with: pattern.model) })
  }

  /// Plays an AHAP file once, now (starting the engine if needed).
  public func playPattern(from url: URL) throws(CHHapticError) {
    try playPattern(CHHapticPattern(contentsOf: url))
  }

  /// Plays AHAP data once, now (starting the engine if needed).
  public func playPattern(from data: Data) throws(CHHapticError) {
    guard let object = try? JSONSerialization.jsonObject(with: data), let dictionary = object as? [String: Any] else {
      throw CHHapticError(.invalidPatternData, "the data is not an AHAP JSON object")
    }
    var keyed: [CHHapticPattern.Key: Any] = [:]
    for (key, value) in dictionary { keyed[CHHapticPattern.Key(rawValue: key)] = value }
    try playPattern(CHHapticPattern(dictionary: keyed))
  }

  func playPattern(_ pattern: CHHapticPattern) throws(CHHapticError) {
    if !engine.isRunning { try start() }
    let player = try bridged { () throws(HapticEngineError) in try engine.makePlayer(with: pattern.model) }
    try bridged { () throws(HapticEngineError) in try player.start(atTime: CHHapticTimeImmediate) }
  }

  /// What the hardware can do: the configured board's answer (haptics when it reports an
  /// actuator, audio when an audio output opens).
  public static func capabilitiesForHardware() -> any CHHapticDeviceCapability {
    let engine = try? CHHapticEngine()
    return BoardCapability(supportsHaptics: engine != nil, supportsAudio: engine?.audioOutput != nil)
  }
}

extension CHHapticEngine.StoppedReason {
  init(_ reason: HapticEngineStoppedReason) {
    switch reason {
    case .idleTimeout: self = .idleTimeout
    case .notifyWhenFinished: self = .notifyWhenFinished
    case .boardDisconnected: self = .gameControllerDisconnect
    case .boardReset, .systemError: self = .systemError
    }
  }
}

/// A value handed across threads as Core Haptics hands its callbacks (on its own queue); the
/// caller's closure is not `Sendable` in Apple's API. Unchecked: one `let`, handed over once and
/// called, never mutated.
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
