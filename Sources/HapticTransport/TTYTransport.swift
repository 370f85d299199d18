import CHapticPosix
import Glibc
import HapticLocks
import SystemPackage

/// A serial device or pseudo-terminal driven through a POSIX file descriptor and termios:
/// raw 8N1, the requested baud rate, DTR asserted, exclusive access (`flock` plus `TIOCEXCL`), and
/// `poll` with deadlines for every read and write.
///
/// libserialport 0.1.1 refuses `/dev/pts/N`, so pseudo-terminals (the simulator's, simavr's)
/// use this transport; real ports use ``SerialPortTransport``, which shares the I/O code.
public final class TTYTransport: ByteTransport {
  /// Baud rates the transports accept (1200 is never used: it resets some boards).
  public static let supportedBaudRates = [
    9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 576_000, 921_600, 1_000_000,
    1_500_000, 2_000_000,
  ]

  public let name: String
  /// True for a pseudo-terminal, false for a serial device.
  public let acceptsAnyRate: Bool
  private let descriptor: Int32
  private let closesDescriptor: Bool
  private let isClosed = Locked(false)
  private let onClose: (@Sendable () -> Void)?
  /// The eventfd ``interruptRead()`` signals and every read waits on beside the port (-1 when
  /// none could be made: reads then end by their timeout alone). Closed at deinit, never while a
  /// read may wait on it.
  private let wakeDescriptor: Int32

  /// Opens `path` at `baud`.
  ///
  /// - Throws: ``TransportError`` naming the port: not found, busy (another process holds it),
  ///   permission denied, unsupported baud.
  public static func open(path: String, baud: Int = 115_200) throws(TransportError) -> TTYTransport {
    try checkBaud(baud, port: path)
    let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw openError(errno, port: path) }
    do {
      try configure(fd: fd, baud: baud, port: path)
    } catch {
      Glibc.close(fd)
      throw error
    }
    let real = Transports.realPath(path) ?? path
    return TTYTransport(name: path, descriptor: fd, acceptsAnyRate: Transports.isPseudoTerminal(real))
  }

  /// Wraps an already configured descriptor. With `closesDescriptor` the transport closes it;
  /// `onClose` runs once when the transport closes (e.g. to release a libserialport handle).
  init(
    name: String, descriptor: Int32, acceptsAnyRate: Bool, closesDescriptor: Bool = true,
    onClose: (@Sendable () -> Void)? = nil
  ) {
    self.name = name
    self.acceptsAnyRate = acceptsAnyRate
    self.descriptor = descriptor
    self.closesDescriptor = closesDescriptor
    self.onClose = onClose
    wakeDescriptor = chaptic_wake_open()
  }

  deinit {
    close()
    if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
  }

  public var interruptsReads: Bool { wakeDescriptor >= 0 }

  public var pollDescriptor: Int32? { isClosed.withLock { $0 } ? nil : descriptor }

  public func interruptRead() {
    if wakeDescriptor >= 0 { chaptic_wake(wakeDescriptor) }
  }

  static func checkBaud(_ baud: Int, port: String) throws(TransportError) {
    if baud == 1200 {
      throw TransportError(
        .unsupportedBaud, port: port,
        "1200 baud is never used: it reboots some boards into their bootloader")
    }
    guard supportedBaudRates.contains(baud) else {
      let list = supportedBaudRates.map(String.init).joined(separator: ", ")
      throw TransportError(.unsupportedBaud, port: port, "\(baud) baud is not supported (use one of \(list))")
    }
  }

  static func openError(_ code: Int32, port: String) -> TransportError {
    switch code {
    case ENOENT, ENODEV, ENXIO: return TransportError(.portNotFound, port: port, "no such port", errno: code)
    case EACCES, EPERM:
      return TransportError(
        .permissionDenied, port: port,
        "permission denied (add yourself to the dialout group: sudo usermod -aG dialout $USER)", errno: code)
    case EBUSY: return TransportError(.portBusy, port: port, "port busy: another process has it open", errno: code)
    default: return TransportError(.ioError, port: port, "cannot open: \(String(cString: strerror(code)))", errno: code)
    }
  }

  /// Takes the exclusive `flock` on an open descriptor (before touching its line settings, so a
  /// busy port is left as its owner set it), then `TIOCEXCL` as a best effort (pseudo-terminals
  /// and root ignore it; the flock is the guard). Shared by both transports.
  static func lockExclusively(fd: Int32, port: String) throws(TransportError) {
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EWOULDBLOCK {
        throw TransportError(.portBusy, port: port, "port busy: another process has it open", errno: code)
      }
      throw TransportError(.ioError, port: port, "cannot lock: \(String(cString: strerror(code)))", errno: code)
    }
    _ = chaptic_set_exclusive(fd)
  }

  /// Locks, configures and asserts DTR on an open descriptor.
  static func configure(fd: Int32, baud: Int, port: String) throws(TransportError) {
    try lockExclusively(fd: fd, port: port)
    if chaptic_configure_serial(fd, Int32(baud)) != 0 {
      let code = errno
      throw TransportError(.ioError, port: port, "cannot configure \(baud) baud 8N1: \(String(cString: strerror(code)))", errno: code)
    }
    if chaptic_assert_dtr(fd) != 0 && errno != ENOTTY && errno != EINVAL {
      let code = errno
      throw TransportError(.ioError, port: port, "cannot assert DTR: \(String(cString: strerror(code)))", errno: code)
    }
    tcflush(fd, TCIOFLUSH)
  }

  public func write(_ bytes: [UInt8]) throws(TransportError) {
    guard !isClosed.withLock({ $0 }) else { throw TransportError(.closed, port: name, "the port is closed") }
    try Self.writeAll(bytes, to: FileDescriptor(rawValue: descriptor), name: name)
  }

  public func read(timeout: Double) throws(TransportError) -> [UInt8] {
    guard !isClosed.withLock({ $0 }) else { throw TransportError(.closed, port: name, "the port is closed") }
    return try Self.readSome(from: FileDescriptor(rawValue: descriptor), wake: wakeDescriptor, timeout: timeout, name: name)
  }

  public func setBaud(_ baud: Int) throws(TransportError) {
    guard !isClosed.withLock({ $0 }) else { throw TransportError(.closed, port: name, "the port is closed") }
    try Self.checkBaud(baud, port: name)
    if chaptic_configure_serial(descriptor, Int32(baud)) != 0 {
      let code = errno
      // EINVAL: a rate this port (or termios) does not have; anything else is the port failing.
      throw TransportError(
        code == EINVAL ? .unsupportedBaud : .ioError, port: name,
        "cannot set \(baud) baud: \(String(cString: strerror(code)))", errno: code)
    }
    tcflush(descriptor, TCIFLUSH)
  }

  public func close() {
    let wasOpen = isClosed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard wasOpen else { return }
    if closesDescriptor { try? FileDescriptor(rawValue: descriptor).close() }
    onClose?()
  }
}
