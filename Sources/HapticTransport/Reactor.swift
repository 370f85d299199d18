import CHapticPosix
import Foundation
import HapticLocks

#if canImport(Glibc)
  import Glibc
#endif

/// When a ``ReactorSource`` next needs its reactor: at the latest at `latest`, and any time from
/// `earliest` on, when a wake for another source serves it too (``MonotonicTime`` seconds).
public struct ReactorWindow: Sendable, Equatable {
  /// The earliest moment a call is useful.
  public var earliest: Double
  /// The moment by which the call must come.
  public var latest: Double

  /// A window from `earliest` to `latest` (`earliest` is clamped to `latest`).
  public init(earliest: Double, latest: Double) {
    self.earliest = min(earliest, latest)
    self.latest = latest
  }
}

/// Something a ``Reactor`` serves on its thread: input on a descriptor, a due time, or both (a
/// board link's reader; an engine's scheduler passes).
public protocol ReactorSource: AnyObject, Sendable {
  /// The descriptor watched for input, or nil for a timer alone. Read once, when it is added.
  var reactorDescriptor: Int32? { get }
  /// When the source next needs a call (nil: only on input). Asked after each call, and again
  /// after ``Reactor/wake()``.
  func reactorWindow() -> ReactorWindow?
  /// Takes the input that is ready, before any source of the wake-up is served: what arrived is
  /// stamped with when it was read, not with when the thread got to it (a clock answer's time).
  func reactorRead()
  /// Serves the source on the reactor's thread: its input is ready (`readable`: taken by
  /// ``reactorRead()``), its window is open, or both. Returns false to leave the reactor.
  func reactorFire(readable: Bool) -> Bool
  /// Called once every source of the wake-up is served, as the thread goes back to waiting:
  /// what should go out only then (a clock query, whose answer is timed as it arrives).
  func reactorIdle()
}

extension ReactorSource {
  /// Nothing to read ahead.
  public func reactorRead() {}
  /// Nothing to send at the end of a wake-up.
  public func reactorIdle() {}
}

/// One thread serving many sources: a `ppoll` over all their descriptors until the earliest
/// window closes, then a call to every source with input or an open window. A rig's sixteen
/// boards have thirty-two threads otherwise (a reader and a scheduler loop each), each woken on
/// its own: 1 330 wake-ups a second, most of the rig's CPU time, where one thread serves the
/// boards' passes, due on one frame grid, in one wake-up (docs/architecture.md §5.11).
///
/// A wake-up reads every ready port first, each stamped as it is read, then serves the input
/// (acknowledging it at once) and the timers (scheduler passes), then lets the sources send what
/// should go out as the thread waits again: a clock query's answer then arrives while it waits,
/// and is timed as it comes, not behind other boards' work. The thread runs while any source is added and ends with the
/// last.
public final class Reactor: Sendable {
  private struct Entry: Sendable {
    let id: Int
    let source: any ReactorSource
    let descriptor: Int32?
  }

  private struct State: Sendable {
    var entries: [Entry] = []
    var nextID = 1
    var running = false
    /// The thread while it runs (``isCurrentThread``).
    var thread: UInt?
    /// The source being served (``remove(_:)`` waits for it).
    var firing: Int?
    /// Windows to ask again (``wake()``).
    var stale = false
    /// Returns from the wait so far.
    var wakeUps = 0
  }

  /// The thread's name (`ps -L`, `perf`).
  public let name: String
  private let state = Locked(State())
  private let wakeDescriptor: Int32

  /// A reactor whose thread is named `name` (at most 15 characters show).
  public init(name: String) {
    self.name = name
    wakeDescriptor = chaptic_wake_open()
  }

  deinit {
    if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
  }

  /// Adds `source` (its thread starts if it is not running); returns its token for
  /// ``remove(_:)``.
  @discardableResult
  public func add(_ source: any ReactorSource) -> Int {
    let (id, start) = state.withLock { state -> (Int, Bool) in
      let id = state.nextID
      state.nextID += 1
      state.entries.append(Entry(id: id, source: source, descriptor: source.reactorDescriptor))
      state.stale = true
      defer { state.running = true }
      return (id, !state.running)
    }
    if start {
      let thread = Thread { [self] in run() }
      thread.name = name
      thread.qualityOfService = .userInteractive
      thread.start()
    } else {
      chaptic_wake(wakeDescriptor)
    }
    return id
  }

  /// Removes the source of `token`: it is not called again once this returns (it waits for a
  /// call under way, unless it is made on the reactor's thread). Removing twice does nothing.
  public func remove(_ token: Int) {
    let me = UInt(pthread_self())
    while true {
      let done = state.withLock { state -> Bool in
        if state.firing == token && state.thread != me { return false }
        state.entries.removeAll { $0.id == token }
        state.stale = true
        return true
      }
      if done { break }
      usleep(100)
    }
    chaptic_wake(wakeDescriptor)
  }

  /// Asks every source's window again now (one was moved earlier from another thread).
  public func wake() {
    state.withLock { $0.stale = true }
    chaptic_wake(wakeDescriptor)
  }

  /// How many times the thread has woken so far (its waits ended by input, a due window or
  /// ``wake()``): the figure a shared thread is for.
  public var wakeUps: Int { state.withLock { $0.wakeUps } }

  /// Whether the thread runs (it does while any source is added).
  public var isRunning: Bool { state.withLock { $0.running } }

  /// True on the reactor's own thread (a source's call, or a handler it runs).
  public var isCurrentThread: Bool { state.withLock { $0.thread } == UInt(pthread_self()) }

  private func run() {
    Thread.current.name = name
    let me = UInt(pthread_self())
    var windows: [Int: ReactorWindow] = [:]
    var descriptors: [Int32] = []
    var ready: [Int16] = []
    while true {
      guard let (entries, stale) = state.withLock({ state -> ([Entry], Bool)? in
        guard !state.entries.isEmpty else {
          state.running = false
          state.thread = nil
          return nil
        }
        state.thread = me
        defer { state.stale = false }
        return (state.entries, state.stale)
      }) else { return }
      if stale { windows.removeAll(keepingCapacity: true) }
      var latest = Double.infinity
      descriptors.removeAll(keepingCapacity: true)
      for entry in entries {
        if windows[entry.id] == nil, let window = entry.source.reactorWindow() { windows[entry.id] = window }
        if let window = windows[entry.id] { latest = min(latest, window.latest) }
        if let descriptor = entry.descriptor { descriptors.append(descriptor) }
      }
      let timeout = min(max(latest - MonotonicTime.seconds(), 0), 1)
      ready.removeAll(keepingCapacity: true)
      ready.append(contentsOf: repeatElement(0, count: descriptors.count))
      var woken: Int32 = 0
      let count = chaptic_wait_many(descriptors, Int32(descriptors.count), wakeDescriptor, Int64(timeout * 1e9), &ready, &woken)
      if count < 0 && errno != EINTR { usleep(1000) }
      state.withLock { $0.wakeUps += 1 }
      if woken != 0 { continue }
      let now = MonotonicTime.seconds()
      var calls: [(entry: Entry, readable: Bool)] = []
      var index = 0
      for entry in entries {
        var readable = false
        if entry.descriptor != nil {
          readable = count > 0 && ready[index] != 0
          index += 1
        }
        let due = windows[entry.id].map { $0.earliest <= now } ?? false
        if readable || due { calls.append((entry, readable)) }
      }
      // Input first, all of it, each stamped as it is read; then served, its acknowledgements
      // sent; then timers (scheduler passes, the longest work); last, what goes out as the
      // thread waits again. A board polls for the acknowledgement of what it sent 2 ms after
      // it (the Unos 5 ms): behind sixteen boards' passes a clock answer often drew a poll and
      // a second acknowledgement, a read and a write more per query.
      for call in calls where call.readable { call.entry.source.reactorRead() }
      calls.sort { ($0.entry.descriptor == nil ? 1 : 0) < ($1.entry.descriptor == nil ? 1 : 0) }
      var served: [Entry] = []
      for call in calls {
        guard let keep = serve(call.entry, { $0.reactorFire(readable: call.readable) }) else { continue }
        windows[call.entry.id] = nil
        if keep { served.append(call.entry) } else { state.withLock { $0.entries.removeAll { $0.id == call.entry.id } } }
      }
      for entry in served { _ = serve(entry) { $0.reactorIdle() } }
    }
  }

  /// Calls `body` on `entry`'s source unless it was removed meanwhile (nil then), marked as the
  /// one being served so that ``remove(_:)`` on another thread waits for it.
  private func serve<Value>(_ entry: Entry, _ body: (any ReactorSource) -> Value) -> Value? {
    let present = state.withLock { state -> Bool in
      guard state.entries.contains(where: { $0.id == entry.id }) else { return false }
      state.firing = entry.id
      return true
    }
    guard present else { return nil }
    defer { state.withLock { $0.firing = nil } }
    return body(entry.source)
  }
}
