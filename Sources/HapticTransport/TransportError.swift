/// Why a transport could not be opened or used. Always names the port.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The port does not exist.
    case portNotFound
    /// Another process has the port open.
    case portBusy
    /// The user may not open the port.
    case permissionDenied
    /// The baud rate is not supported (or is 1200, which resets some boards).
    case unsupportedBaud
    /// The device went away or the peer closed it.
    case disconnected
    /// A write did not complete in time.
    case timeout
    /// The transport was closed by this side.
    case closed
    /// Any other system error.
    case ioError
  }

  /// The kind of failure.
  public var code: Code
  /// The port's path or name.
  public var port: String
  /// What happened, in words.
  public var message: String
  /// The errno involved, if any.
  public var errno: Int32?

  /// Creates an error.
  public init(_ code: Code, port: String, _ message: String, errno: Int32? = nil) {
    self.code = code
    self.port = port
    self.message = message
    self.errno = errno
  }

  /// `port /dev/ttyACM0: port busy: ...`.
  public var description: String { "port \(port): \(message)" }
}

/// A bidirectional byte stream to a board: a serial port, a pseudo-terminal, or an in-memory
/// pipe. Reads and writes may happen on different threads; `close` may be called from any.
public protocol ByteTransport: AnyObject, Sendable {
  /// The port's path or name, for messages.
  var name: String { get }
  /// Writes all of `bytes` or throws (a write that cannot finish within 1 s is a timeout).
  func write(_ bytes: [UInt8]) throws(TransportError)
  /// Waits up to `timeout` seconds for input and returns what arrived (empty on timeout).
  func read(timeout: Double) throws(TransportError) -> [UInt8]
  /// Closes the transport; later reads and writes throw `.closed`.
  func close()
  /// Sets the open line to `baud` without resetting the board (DTR stays as it is); what waits
  /// to be read is discarded. Transports without a line rate ignore it.
  func setBaud(_ baud: Int) throws(TransportError)
  /// True when bytes pass at whatever rate the port is set to (a pseudo-terminal, memory): a
  /// board on the far side then answers at any rate, and the rate bytes really move at is
  /// the far side's own (an emulated Uno paces them at its UART's).
  var acceptsAnyRate: Bool { get }
  /// True when ``interruptRead()`` ends a waiting ``read(timeout:)``: a reader may then wait
  /// long for input and be woken for anything else (``BoardConnection``'s reader sleeps up to a
  /// second on an idle board instead of waking every 20 ms).
  var interruptsReads: Bool { get }
  /// Makes a ``read(timeout:)`` waiting on another thread return at once, empty (or the next
  /// one, when none waits). Any thread may call it, any number of times.
  func interruptRead()
  /// The descriptor input arrives on, for a ``Reactor`` to wait on beside other ports' (nil:
  /// reads must wait in ``read(timeout:)``). Once it is readable, a read with timeout 0 takes
  /// what came.
  var pollDescriptor: Int32? { get }
}

extension ByteTransport {
  /// No line rate: nothing to set.
  public func setBaud(_ baud: Int) throws(TransportError) {}
  /// No line rate: bytes move at memory speed.
  public var acceptsAnyRate: Bool { true }
  /// Reads are not interrupted: a reader wakes by its timeout.
  public var interruptsReads: Bool { false }
  /// Reads are not interrupted: nothing to do.
  public func interruptRead() {}
  /// No descriptor: reads wait in ``read(timeout:)``.
  public var pollDescriptor: Int32? { nil }
}
