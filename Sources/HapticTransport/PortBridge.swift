import CHapticPosix
import Dispatch
import Foundation
import Glibc
import HapticLocks

/// A local pseudo-terminal whose bytes travel to and from another transport — a board on
/// another machine — for programs that open only local ports (avrdude, for `hapticctl flash`
/// through ser2net, issue 30). What a program writes to ``path`` goes to the transport, what the
/// transport reads comes out of ``path``, and the rate the program sets on ``path`` is set on the
/// far port (``ByteTransport/setBaud(_:)``: RFC 2217 carries it; raw TCP keeps ser2net's).
///
/// The bridge holds ``path`` open itself, so a program may open and close it without the pair
/// hanging up. Its threads run until ``stop()`` (which the owner must call: they keep the bridge
/// alive) or until either side fails. Control lines do not cross: a pseudo-terminal has none (a program's DTR changes
/// fail there), so a reset is the caller's (``NetworkTransport/pulseReset()``).
public final class PortBridge: Sendable {
  /// The local path programs open, e.g. `/dev/pts/7`.
  public let path: String
  private let terminal: PseudoTerminal
  private let remote: any ByteTransport
  /// The bridge's own descriptor of ``path`` (kept open; its termios is the program's).
  private let held: Int32
  private let state: Locked<State>
  private let relays = DispatchGroup()

  private struct State {
    var stopping = false
    var stopped = false
    /// The first failure of either direction; both stop on it.
    var failure: TransportError?
    /// The rate the far port was last set to.
    var baud: Int
  }

  /// Opens a pseudo-terminal set to `baud` (the rate `remote` was opened at) and starts carrying
  /// bytes both ways.
  ///
  /// - Throws: ``TransportError`` when no pseudo-terminal can be made.
  public init(to remote: any ByteTransport, baud: Int) throws(TransportError) {
    terminal = try PseudoTerminal()
    path = terminal.path
    self.remote = remote
    held = Glibc.open(terminal.path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    guard held >= 0 else {
      let code = errno
      terminal.boardSide.close()
      throw TransportError(.ioError, port: terminal.path, "cannot open the bridge's pseudo-terminal: \(String(cString: strerror(code)))", errno: code)
    }
    _ = chaptic_configure_serial(held, Int32(baud))
    state = Locked(State(baud: baud))
    for isOutward in [true, false] {
      relays.enter()
      let thread = Thread { [self] in
        defer { relays.leave() }
        do throws(TransportError) {
          while !state.withLock({ $0.stopping }) { try isOutward ? outward() : inward() }
        } catch {
          state.withLock { state in
            if !state.stopping, state.failure == nil { state.failure = error }
            state.stopping = true
          }
          remote.interruptRead()
          terminal.boardSide.interruptRead()
        }
      }
      thread.name = "port bridge \(terminal.path)"
      thread.start()
    }
  }

  /// Why the bridge stopped by itself (the far side closed, a write timed out), or nil.
  public var failure: TransportError? { state.withLock { $0.failure } }

  /// Stops both directions and closes the pseudo-terminal (not the transport: the caller's).
  /// Returns ``failure``.
  @discardableResult
  public func stop() -> TransportError? {
    let first = state.withLock { state -> Bool in
      state.stopping = true
      defer { state.stopped = true }
      return !state.stopped
    }
    if first {
      remote.interruptRead()
      terminal.boardSide.interruptRead()
      relays.wait()
      terminal.boardSide.close()
      Glibc.close(held)
    }
    return failure
  }

  /// One pass of the program → far side direction: the rate first (a program sets it before it
  /// writes), then what the program wrote.
  private func outward() throws(TransportError) {
    let baud = Int(chaptic_get_baud(held))
    if baud > 0, baud != state.withLock({ $0.baud }) {
      try remote.setBaud(baud)
      state.withLock { $0.baud = baud }
    }
    let bytes = try terminal.boardSide.read(timeout: 0.01)
    if !bytes.isEmpty { try remote.write(bytes) }
  }

  /// One pass of the far side → program direction.
  private func inward() throws(TransportError) {
    let bytes = try remote.read(timeout: 0.05)
    if !bytes.isEmpty { try terminal.boardSide.write(bytes) }
  }
}
