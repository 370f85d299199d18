import Foundation
public import HapticTransport
import HapticWire
import HapticRenderer

/// Runs a ``SimulatedBoard`` in real time on a byte transport (the board side of a
/// pseudo-terminal, or a loopback pair), with optional line faults.
///
/// The loop is a fixed-step game loop: every pass it reads what the host sent (waiting at most
/// one frame period), advances the board to the wall clock and writes its replies. On a
/// ``TimedByteTransport`` (a modelled line) the board takes each piece at its arrival in
/// simulated time, wherever the pass falls. When the process falls behind by more than
/// ``Faults/maxCatchUp`` it does not try to simulate the backlog at once (which would only fall
/// further behind — the "spiral of death"): it simulates that bound, skips the rest of the gap
/// without physics, and counts an overrun (a piece that arrived in the skipped span reaches the
/// board at the end of it).
///
/// Unchecked: `board`, `stopRequested` and `report` are written only under `lock`, and read
/// without it only by ``run()``'s thread, the one thread that writes them (its other state is
/// in locals); the rest are `let`s.
public final class SimulatorServer: @unchecked Sendable {
  /// Faults and timing limits of the served link.
  public struct Faults: Sendable {
    /// Probability that a byte is lost (each direction).
    public var dropRate = 0.0
    /// Probability that a byte gets one bit flipped (each direction).
    public var corruptRate = 0.0
    /// Extra one-way delay in each direction, seconds, as a network adds it: what the host
    /// writes reaches the board this much later, and the board's replies leave this much later.
    public var delay = 0.0
    /// The largest departure from ``delay`` either way, seconds: each piece's delay is drawn
    /// uniformly from `delay ± jitter` (seeded by ``seed``), and pieces keep their order.
    public var jitter = 0.0
    /// Close the link (as an unplugged cable) at this many seconds after start.
    public var disconnectAt: Double?
    /// Reset the board (as a brown-out) at this many seconds after start.
    public var resetAt: Double?
    /// Reset it again every this many seconds after that (from the start when ``resetAt`` is
    /// nil): a soak's repeated brown-outs.
    public var resetInterval: Double?
    /// The most simulated time one pass may catch up; the rest of a longer stall is skipped.
    public var maxCatchUp = 0.050
    /// Seed of the fault generator.
    public var seed: UInt64 = 1

    /// No faults.
    public init() {}
  }

  /// What the server counted.
  public struct Report: Sendable {
    /// Passes that found the simulation behind by more than the catch-up bound.
    public var overruns = 0
    /// Simulated seconds skipped without physics because of overruns.
    public var skipped = 0.0
    /// Bytes received from the host.
    public var bytesIn = 0
    /// Bytes sent to the host.
    public var bytesOut = 0
    /// Why the loop ended.
    public var ended = ""
  }

  private let transport: any ByteTransport
  private let faults: Faults
  private let lock = NSLock()
  private var board: SimulatedBoard
  private var stopRequested = false
  private var report = Report()

  private let waitsForClients: Bool
  private let trace: (any ServedBoardTrace)?

  /// Prepares a server; call ``run()`` to serve.
  ///
  /// - Parameters:
  ///   - board: the board to run.
  ///   - transport: the board's side of the link.
  ///   - faults: line faults and timing limits.
  ///   - waitsForClients: keep serving when the other end closes (a pseudo-terminal whose
  ///     client exited): the board keeps running, its watchdog stops the drive, and the next
  ///     client that opens the port finds it. Otherwise a closed link ends ``run()``.
  ///   - trace: receives every physics step and event of the board (`sim serve --trace`).
  public init(
    board: SimulatedBoard, transport: any ByteTransport, faults: Faults = Faults(), waitsForClients: Bool = false,
    trace: (any ServedBoardTrace)? = nil
  ) {
    self.board = board
    self.board.recordsEvents = trace != nil
    self.trace = trace
    self.transport = transport
    self.faults = faults
    self.waitsForClients = waitsForClients
  }

  /// Asks ``run()`` to return (from any thread).
  public func stop() { lock.withLock { stopRequested = true } }

  /// A copy of the board as it is now (for tests and status).
  public var snapshot: SimulatedBoard { lock.withLock { board } }

  /// The counters so far.
  public var counters: Report { lock.withLock { report } }

  /// Serves until ``stop()``, a configured disconnect, or a transport failure. Blocking.
  @discardableResult
  public func run() -> Report {
    let clock = ContinuousClock()
    let start = clock.now
    trace?.started(atHostSeconds: MonotonicTime.seconds())
    func serverSeconds(at instant: ContinuousClock.Instant) -> Double {
      let d = instant - start
      return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    func elapsed() -> Double { serverSeconds(at: clock.now) }
    var inbound = FaultModel(dropRate: faults.dropRate, corruptRate: faults.corruptRate, seed: faults.seed)
    var outbound = FaultModel(dropRate: faults.dropRate, corruptRate: faults.corruptRate, seed: faults.seed &+ 1)
    var delayed: [(due: Double, bytes: [UInt8])] = []
    var inboundDelay = LineDelay(delay: faults.delay, jitter: faults.jitter, seed: faults.seed &+ 2)
    var outboundDelay = LineDelay(delay: faults.delay, jitter: faults.jitter, seed: faults.seed &+ 3)
    var nextReset = faults.resetAt ?? faults.resetInterval
    // A pseudo-terminal nobody opened yet reads as open (no hang-up before a first close).
    var hostPresent = true
    var flushedAt = 0.0
    let period = min(board.configuration.profile.framePeriod, 0.001)
    let timed = transport as? any TimedByteTransport
    // What arrived and is not yet the board's, in order, with its arrival in server seconds.
    var inboundQueue: [(at: Double, bytes: [UInt8])] = []
    while true {
      if lock.withLock({ stopRequested }) { return finish("stopped") }
      var received: [UInt8] = []
      var clientGone = false
      do {
        // A piece still on the line wakes the loop when it lands (its handling does not wait for
        // that wake-up: it happens at the arrival in simulated time); so does a delayed reply.
        let next = min(inboundQueue.first?.at ?? .infinity, delayed.first?.due ?? .infinity)
        let wait = next.isFinite ? min(max(next - elapsed(), 0), period) : period
        if let timed {
          for piece in try timed.readTimed(timeout: wait) {
            inboundQueue.append((inboundDelay.due(sentAt: serverSeconds(at: piece.arrival)), piece.bytes))
            received += piece.bytes
          }
        } else {
          received = try transport.read(timeout: wait)
        }
      } catch {
        guard waitsForClients && error.code == .disconnected else {
          return finish("the link closed: \(error.description)")
        }
        // No client on the other end: keep the board's time running.
        clientGone = true
        usleep(UInt32(period * 1_000_000))
      }
      let t = elapsed()
      if hostPresent == clientGone {
        hostPresent = !clientGone
        lock.withLock { board.note(clientGone ? .hostGone : .hostOpened) }
      }
      if let at = faults.disconnectAt, t >= at {
        transport.close()
        return finish("disconnected at \(at) s (fault injection)")
      }
      var out: [UInt8] = []
      /// Advances the board (with the lock held), through the trace when there is one.
      func advanceBoard(to t: Double) {
        guard let trace else { return out += board.advance(to: t) }
        var steps = ForwardingTrace(sink: trace)
        out += board.advance(to: t, trace: &steps)
      }
      // Untimed input is the board's at this pass, as read.
      if timed == nil && !received.isEmpty { inboundQueue.append((inboundDelay.due(sentAt: t), received)) }
      lock.withLock {
        report.bytesIn += received.count
        let behind = t - board.time
        if behind > faults.maxCatchUp {
          report.overruns += 1
          report.skipped += behind - faults.maxCatchUp
          board.skip(to: t - faults.maxCatchUp)
        }
        /// Hands the board what has arrived by `limit` (before it, when `strictly`), each piece
        /// at its arrival.
        func deliver(upTo limit: Double, strictly: Bool) {
          while let first = inboundQueue.first, strictly ? first.at < limit : first.at <= limit {
            inboundQueue.removeFirst()
            advanceBoard(to: first.at)
            out += board.receive(inbound.apply(first.bytes))
          }
        }
        deliver(upTo: t, strictly: true)
        advanceBoard(to: t)
        if let at = nextReset, t >= at {
          nextReset = faults.resetInterval.map { at + max($0, 0.001) }
          board.reset(cause: .brownOut)
          advanceBoard(to: t)
        }
        deliver(upTo: t, strictly: false)
        if let trace { for event in board.takeEvents() { trace.event(event) } }
      }
      // The trace is written after this pass's replies have gone (below): a board answers at
      // once. Flushed before them, the replies waited for the write — and the flushes locked
      // onto a host's clock queries, which come as often (a query's arrival wakes the pass that
      // finds the flush due): every sample of one board's clock fit then carried half the write's
      // time (0.6 ms seen in `rig measure`, steady for a whole run).
      defer {
        if let trace, t - flushedAt >= Self.traceFlushPeriod {
          flushedAt = t
          lock.withLock { trace.flush() }
        }
      }
      out = outbound.apply(out)
      if outboundDelay.isActive {
        if !out.isEmpty { delayed.append((outboundDelay.due(sentAt: t), out)) }
        out = []
        while let first = delayed.first, first.due <= t {
          out += first.bytes
          delayed.removeFirst()
        }
      }
      guard !out.isEmpty && !clientGone else { continue }
      do {
        try transport.write(out)
        lock.withLock { report.bytesOut += out.count }
      } catch {
        if waitsForClients && error.code == .disconnected { continue }
        return finish("the link closed: \(error.description)")
      }
    }
  }

  private func finish(_ reason: String) -> Report {
    lock.withLock {
      board.stopAll()
      report.ended = reason
      if let trace {
        for event in board.takeEvents() { trace.event(event) }
        trace.flush()
      }
      return report
    }
  }

  /// How often the trace is flushed while serving, seconds.
  static let traceFlushPeriod = 0.1
}

/// Receives a served board's physics steps and events (`sim serve --trace`), on the server's
/// thread, with the server's lock held.
public protocol ServedBoardTrace: AnyObject {
  /// One physics step of one channel: drive as a fraction of full scale, acceleration in G.
  func step(time: Double, channel: Int, drive: Double, acceleration: Double)
  /// Something the board did (an underrun, a late batch, the watchdog, a reset, the host).
  func event(_ event: BoardEvent)
  /// Writes out what is buffered: about every 0.1 s while serving, and when serving ends.
  func flush()
  /// The host's monotonic clock (``MonotonicTime``, seconds) at board time 0, told before the
  /// first step, and again whenever what board time 0 stands for changes (an emulated board's
  /// simulated time tied to the wall clock anew: `hapticctl emulate`); rows after it go by the
  /// latest. A trace may put each row on the host's clock (`--trace-host-time`), where several
  /// boards' rows compare.
  func started(atHostSeconds epoch: Double)
}

extension ServedBoardTrace {
  /// Nothing to do, by default.
  public func started(atHostSeconds epoch: Double) {}
}

/// Hands a board's steps to a ``ServedBoardTrace``.
private struct ForwardingTrace: SimulationTrace {
  let sink: any ServedBoardTrace

  func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
    sink.step(time: time, channel: channel, drive: drive, acceleration: acceleration)
  }
}
