import Foundation
public import HapticEngine
import HapticLocks
import HapticRenderer
import HapticTransport
import HapticWire

/// A rig: every board of a ``RigFile`` open, one engine each, on one host timeline.
///
/// Rig time is the host's monotonic clock, in seconds since the rig opened. Each board's
/// engine keeps its own clock sync (a regression over its round trips, so its offset and drift
/// are tracked continuously); the rig maps an instant of rig time onto each board's clock, so
/// ``RigPlayer/start(atTime:)`` means the same instant on every board (docs/rigs.md).
public final class Rig: Sendable {
  /// One board of the rig.
  public struct Member: Sendable {
    /// Its entry in the rig file.
    public let entry: RigFile.Board
    let slot: MemberSlot

    /// Its engine: the one it opened with, or the one it rejoined with after it was lost.
    public var engine: HapticEngine { slot.state.withLock { $0.engine } }
    /// Why it is lost (nil while it is part of the rig).
    public var lost: String? { slot.state.withLock { $0.lost } }
    /// Host monotonic seconds at the link's host time 0.
    var hostEpoch: Double { slot.state.withLock { $0.hostEpoch } }
  }

  /// What happened to a board of an open rig.
  public enum BoardEvent: Sendable, Hashable {
    /// The board went away or reset: its players ended (the reason in words).
    case lost(String)
    /// A lost board is back on the rig's timeline: its players play on from where the others are.
    case rejoined
  }

  /// The rig file.
  public let file: RigFile
  /// The boards, in the file's order.
  public let members: [Member]
  /// Host monotonic seconds at rig time 0.
  let epoch: Double
  private let handler = Locked<(@Sendable (String, BoardEvent) -> Void)?>(nil)
  /// Opens a board's engine (for a lost board's return).
  let opener: @Sendable (RigFile.Board) throws(HapticEngineError) -> HapticEngine
  /// What rejoining shares: the players to bring back onto a returning board, whether the rig
  /// is closed, and whether lost boards are waited for.
  let rejoining = Locked(Rejoining())

  /// Opens every board of `file` (in parallel), starts their engines and checks that each
  /// actuator's channel is on its board.
  ///
  /// - Parameter open: opens the engine of a board entry (a serial port, a network port, a
  ///   simulator); its errors are reported naming the board and its port.
  /// - Throws: ``RigError`` `board` for a board that cannot be opened or started or is not the
  ///   board its entry names, `actuator` for a channel the board lacks. Nothing stays open.
  public static func open(
    _ file: RigFile, open: @escaping @Sendable (RigFile.Board) throws(HapticEngineError) -> HapticEngine
  ) throws(RigError) -> Rig {
    let opening = MonotonicTime.seconds()
    let results = Locked([Result<HapticEngine, RigError>?](repeating: nil, count: file.boards.count))
    DispatchQueue.concurrentPerform(iterations: file.boards.count) { index in
      let entry = file.boards[index]
      let result: Result<HapticEngine, RigError>
      do throws(HapticEngineError) {
        let engine = try open(entry)
        do throws(HapticEngineError) {
          try engine.start()
          result = .success(engine)
        } catch {
          engine.close()
          result = .failure(RigError(.board, board: entry.name, "cannot start on \(entry.port): \(error.message)"))
        }
      } catch {
        result = .failure(RigError(.board, board: entry.name, "cannot open \(entry.port): \(error.message)"))
      }
      results.withLock { $0[index] = result }
    }
    let opened = results.withLock { $0 }.compactMap { $0 }
    let engines = opened.compactMap { try? $0.get() }
    func closeAll() { for engine in engines { engine.close() } }
    if let failure = opened.lazy.compactMap({ result -> RigError? in
      if case .failure(let error) = result { return error } else { return nil }
    }).first {
      closeAll()
      throw failure
    }
    for (entry, engine) in zip(file.boards, engines) {
      if let id = entry.board, engine.capabilities.boardID != id {
        closeAll()
        throw RigError(.board, board: entry.name, "\(entry.port) is a \(engine.capabilities.boardID) board, not \(id)")
      }
    }
    for actuator in file.actuators {
      guard let index = file.boards.firstIndex(where: { $0.name == actuator.board }) else { continue }
      let channels = engines[index].profile.channels.count
      guard actuator.channel < channels else {
        closeAll()
        throw RigError(
          .actuator, board: actuator.board,
          "actuator \(actuator.name): no channel \(actuator.channel) on \(engines[index].capabilities.boardID) (it has \(channels): 0…\(channels - 1))")
      }
    }
    let members = zip(file.boards, engines).map { entry, engine in
      Member(entry: entry, slot: MemberSlot(engine: engine, hostEpoch: Self.hostEpoch(of: engine.link)))
    }
    let rig = Rig(file: file, members: members, opener: open)
    for index in members.indices { rig.watch(index) }
    rig.startSteering()
    // The first second of a link's clock fit: before it, a start is placed on two or three
    // round trips.
    let settled = opening + settleTime
    while MonotonicTime.seconds() < settled { usleep(UInt32(max(settled - MonotonicTime.seconds(), 0) * 1_000_000)) }
    return rig
  }

  /// Seconds between a rig's boards' clock queries once synchronised (a board alone asks about
  /// once a second): ten a second give each board's fit its slope within the rig's settle, and
  /// cost a few bytes each way.
  public static let clockInterval = 0.1

  /// Seconds between clock queries to a board whose clock the fit has settled on behind a fast
  /// line (HapticTransport's `BoardConnection.settledRoundTrip`): each reading pins its clock
  /// within an eighth of a millisecond, and each query saved is a write and a read. A board behind
  /// a slower line (a UART, a network) stays at ``clockInterval``.
  public static let clockSettledInterval = 0.5

  /// Seconds from opening the boards to the rig being ready: a second of round trips behind
  /// every board's clock fit (docs/rigs.md).
  public static let settleTime = 1.0

  init(file: RigFile, members: [Member], opener: @escaping @Sendable (RigFile.Board) throws(HapticEngineError) -> HapticEngine) {
    self.file = file
    self.members = members
    self.opener = opener
    epoch = MonotonicTime.seconds()
  }

  deinit { close() }

  /// Called with a board's name when it is lost (on a link thread).
  public var boardEventHandler: (@Sendable (String, BoardEvent) -> Void)? {
    get { handler.withLock { $0 } }
    set { handler.withLock { $0 = newValue } }
  }

  /// Rig seconds now.
  public var currentTime: Double { MonotonicTime.seconds() - epoch }

  /// The host's monotonic clock (``HapticTransport/MonotonicTime``, CLOCK_MONOTONIC seconds) at
  /// rig time `t`: where simulated boards' traces put their rows (`sim serve --trace-host-time`).
  public func hostSeconds(atRigTime t: Double) -> Double { epoch + t }

  /// Board `index`'s clock, in its engine's seconds, at rig time `t` (nil before clock sync).
  public func boardTime(_ index: Int, atRigTime t: Double) -> Double? {
    members[index].engine.engineTime(atHost: linkHostTime(index, atRigTime: t))
  }

  /// Board `index`'s link clock (``HapticEngine/BoardLink/hostNow``'s) at rig time `t`.
  func linkHostTime(_ index: Int, atRigTime t: Double) -> Double { t + epoch - members[index].hostEpoch }

  /// The rig time of board `index`'s engine time `b` (the inverse of ``boardTime(_:atRigTime:)``,
  /// through the board's fitted rate).
  public func rigTime(_ index: Int, atBoardTime b: Double) -> Double? {
    let now = currentTime
    guard let here = boardTime(index, atRigTime: now), let later = boardTime(index, atRigTime: now + 1), later > here else {
      return nil
    }
    return now + (b - here) / (later - here)
  }

  /// Stops every board's drive and closes the links (a lost board is no longer waited for).
  public func close() {
    rejoining.withLock { $0.closed = true }
    for member in members { member.engine.close() }
  }

  /// Host monotonic seconds at `link`'s host time 0, read between two clock readings.
  static func hostEpoch(of link: any BoardLink) -> Double {
    let before = MonotonicTime.seconds()
    let host = link.hostNow
    let after = MonotonicTime.seconds()
    return (before + after) / 2 - host
  }

  func report(_ board: String, _ event: BoardEvent) {
    handler.withLock { $0 }?(board, event)
  }
}
