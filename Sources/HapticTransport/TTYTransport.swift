import CHapticPosix
import HapticLocks

import Glibc

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
  private let descriptor: Int32
  private let closesDescriptor: Bool
  private let isClosed = Locked(false)
  private let onClose: (@Sendable () -> Void)?

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
    return TTYTransport(name: path, descriptor: fd)
  }

  /// Wraps an already configured descriptor. With `closesDescriptor` the transport closes it;
  /// `onClose` runs once when the transport closes (e.g. to release a libserialport handle).
  init(
    name: String, descriptor: Int32, closesDescriptor: Bool = true, onClose: (@Sendable () -> Void)? = nil
  ) {
    self.name = name
    self.descriptor = descriptor
    self.closesDescriptor = closesDescriptor
    self.onClose = onClose
  }

  deinit {
    close()
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

  /// Locks, configures and asserts DTR on an open descriptor.
  static func configure(fd: Int32, baud: Int, port: String) throws(TransportError) {
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EWOULDBLOCK {
        throw TransportError(.portBusy, port: port, "port busy: another process has it open", errno: code)
      }
      throw TransportError(.ioError, port: port, "cannot lock: \(String(cString: strerror(code)))", errno: code)
    }
    _ = chaptic_set_exclusive(fd)  // best effort: ptys and root ignore it; flock is the guard
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
    try Self.writeAll(bytes, fd: descriptor, name: name, closed: isClosed.withLock { $0 })
  }

  public func read(timeout: Double) throws(TransportError) -> [UInt8] {
    try Self.readSome(fd: descriptor, timeout: timeout, name: name, closed: isClosed.withLock { $0 })
  }

  public func close() {
    let wasOpen = isClosed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard wasOpen else { return }
    if closesDescriptor { Glibc.close(descriptor) }
    onClose?()
  }

  static func writeAll(_ bytes: [UInt8], fd: Int32, name: String, closed: Bool) throws(TransportError) {
    guard !closed else { throw TransportError(.closed, port: name, "the port is closed") }
    var offset = 0
    var waited = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(fd, base + offset, bytes.count - offset)
      }
      if written > 0 {
        offset += written
        continue
      }
      let code = errno
      if written < 0 && code == EINTR { continue }
      if written < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
        var pollfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if poll(&pollfd, 1, 50) == 0 {
          waited += 50
          if waited >= 1000 { throw TransportError(.timeout, port: name, "write timed out after 1 s") }
        }
        continue
      }
      throw ioError(code, port: name, doing: "write")
    }
  }

  static func readSome(fd: Int32, timeout: Double, name: String, closed: Bool) throws(TransportError) -> [UInt8] {
    guard !closed else { throw TransportError(.closed, port: name, "the port is closed") }
    var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(max(0, min(timeout, 60)) * 1000)
    let ready = poll(&pollfd, 1, milliseconds)
    if ready < 0 {
      if errno == EINTR { return [] }
      throw ioError(errno, port: name, doing: "poll")
    }
    if ready == 0 { return [] }
    if pollfd.revents & Int16(POLLNVAL) != 0 { throw TransportError(.closed, port: name, "the port is closed") }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    if count > 0 { return Array(buffer[0..<count]) }
    let code = errno
    if count < 0 && (code == EAGAIN || code == EINTR) { return [] }
    if count == 0 || code == EIO || (pollfd.revents & Int16(POLLHUP) != 0) {
      throw TransportError(.disconnected, port: name, "the device went away (or its other end closed)")
    }
    throw ioError(code, port: name, doing: "read")
  }

  static func ioError(_ code: Int32, port: String, doing: String) -> TransportError {
    if code == EIO || code == ENXIO || code == ENODEV {
      return TransportError(.disconnected, port: port, "the device went away (\(doing): \(String(cString: strerror(code))))", errno: code)
    }
    return TransportError(.ioError, port: port, "\(doing) failed: \(String(cString: strerror(code)))", errno: code)
  }
}
