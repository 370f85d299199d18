import CHapticPosix
import Glibc
import HapticLocks
import SystemPackage

/// A board's serial port on another machine, reached over TCP (issue 30): raw (`tcp://`) or
/// through RFC 2217 (`rfc2217://`), as ser2net serves a port. TCP_NODELAY, so a frame leaves at
/// once; a closed or reset connection is `disconnected`, as an unplugged cable is.
///
/// Over RFC 2217 the line is set up at open as the serial transports set theirs (the baud rate,
/// 8N1, no flow control, DTR and RTS on), ``setBaud(_:)`` sets the far port's rate, and telnet's
/// commands are taken out of what arrives (``TelnetCodec``). Over raw TCP the far port keeps
/// the rate the bridge gives it.
public final class NetworkTransport: ByteTransport {
  /// The URL, as messages name the port.
  public let name: String
  /// Where the port is.
  public let address: NetworkAddress
  private let descriptor: Int32
  private let wakeDescriptor: Int32
  private let isClosed = Locked(false)
  /// The telnet decoder (RFC 2217 only); its answers are written under ``writing``.
  private let codec: Locked<TelnetCodec>?
  /// One writer at a time: a telnet answer from the reader never splits a frame of a sender.
  private let writing = Lock()

  /// How long a connection may take to be made, seconds.
  public static let connectTimeout = 3.0

  /// Connects to `address` and, over RFC 2217, sets the far port to `baud`, 8N1, DTR and RTS on.
  ///
  /// - Throws: ``TransportError`` naming the URL: the name does not resolve or nothing listens
  ///   (`portNotFound`), the connection timed out (`timeout`), anything else (`ioError`).
  public static func open(_ address: NetworkAddress, baud: Int) throws(TransportError) -> NetworkTransport {
    let name = address.description
    var failure: Int32 = 0
    let fd = chaptic_tcp_connect(address.host, Int32(address.port), Int32(connectTimeout * 1000), &failure)
    guard fd >= 0 else {
      if failure < 0 {
        throw TransportError(.portNotFound, port: name, "cannot find \(address.host): \(String(cString: chaptic_gai_message(failure)))")
      }
      let reason = String(cString: strerror(failure))
      switch failure {
      case ETIMEDOUT: throw TransportError(.timeout, port: name, "no answer within \(Int(connectTimeout)) s", errno: failure)
      case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH:
        throw TransportError(.portNotFound, port: name, "cannot connect: \(reason) (is ser2net running there?)", errno: failure)
      default: throw TransportError(.ioError, port: name, "cannot connect: \(reason)", errno: failure)
      }
    }
    let transport = NetworkTransport(name: name, address: address, descriptor: fd)
    if address.kind == .rfc2217 {
      try transport.writeRaw(TelnetCodec.opening + TelnetCodec.lineSetup(baud: baud))
    }
    return transport
  }

  private init(name: String, address: NetworkAddress, descriptor: Int32) {
    self.name = name
    self.address = address
    self.descriptor = descriptor
    wakeDescriptor = chaptic_wake_open()
    codec = address.kind == .rfc2217 ? Locked(TelnetCodec()) : nil
  }

  deinit {
    close()
    if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
  }

  public func write(_ bytes: [UInt8]) throws(TransportError) {
    try writeRaw(codec == nil ? bytes : TelnetCodec.escape(bytes))
  }

  /// Writes `bytes` as they are (telnet commands included), all of them, within 1 s.
  private func writeRaw(_ bytes: [UInt8]) throws(TransportError) {
    guard !isClosed.withLock({ $0 }) else { throw TransportError(.closed, port: name, "the connection is closed") }
    try writing.withLock { () throws(TransportError) in
      var offset = 0
      var waited = 0
      while offset < bytes.count {
        let sent = bytes.withUnsafeBytes { buffer in
          chaptic_send(descriptor, buffer.baseAddress! + offset, UInt(buffer.count - offset))
        }
        if sent >= 0 {
          offset += sent
          continue
        }
        let code = errno
        if code == EINTR { continue }
        guard code == EAGAIN || code == EWOULDBLOCK else { throw Self.failure(code, name: name, doing: "send") }
        try TTYTransport.waitForRoom(descriptor, waited: &waited, name: name, doing: "send")
      }
    }
  }

  public func read(timeout: Double) throws(TransportError) -> [UInt8] {
    guard !isClosed.withLock({ $0 }) else { throw TransportError(.closed, port: name, "the connection is closed") }
    // A timeout of 0 reads at once (the socket is non-blocking), as `TTYTransport`'s.
    if timeout > 0 {
      guard try TTYTransport.waitForInput(descriptor, wake: wakeDescriptor, timeout: timeout, name: name) else { return [] }
    }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count < 0 {
      let code = errno
      if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return [] }
      throw Self.failure(code, name: name, doing: "receive")
    }
    if count == 0 { throw TransportError(.disconnected, port: name, "the connection was closed by the far side") }
    let bytes = Array(buffer[0..<count])
    guard let codec else { return bytes }
    let decoded = codec.withLock { $0.decode(bytes) }
    if !decoded.replies.isEmpty { try writeRaw(decoded.replies) }
    return decoded.data
  }

  public func close() {
    let wasOpen = isClosed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard wasOpen else { return }
    Glibc.close(descriptor)
  }

  /// Over RFC 2217, sets the far port's rate (raw TCP has no way to: ignored there).
  public func setBaud(_ baud: Int) throws(TransportError) {
    try TTYTransport.checkBaud(baud, port: name)
    if codec != nil { try writeRaw(TelnetCodec.setBaud(baud)) }
  }

  /// Over RFC 2217, resets a board with the Uno's auto-reset as avrdude's `arduino` programmer
  /// does on a local port: DTR and RTS off for 250 ms, then on (the edge reaches the reset pin
  /// through the board's capacitor), then 50 ms for the bootloader to start listening. Returns
  /// false over raw TCP, which carries no control lines (the far port's open is then the only
  /// reset: ser2net opens it when a client connects).
  public func pulseReset() throws(TransportError) -> Bool {
    guard codec != nil else { return false }
    try writeRaw(TelnetCodec.controlLines(on: false))
    usleep(250_000)
    try writeRaw(TelnetCodec.controlLines(on: true))
    usleep(50_000)
    return true
  }

  /// Raw TCP: the far port keeps the bridge's rate whatever this side asks, so a board answers
  /// at any rate and its board file's rate is the line's. RFC 2217 sets the far port's rate:
  /// the rate a board answered at is the line's, as on a local serial port.
  public var acceptsAnyRate: Bool { address.kind == .tcp }

  public var interruptsReads: Bool { wakeDescriptor >= 0 }

  public var pollDescriptor: Int32? { isClosed.withLock { $0 } ? nil : descriptor }

  public func interruptRead() {
    if wakeDescriptor >= 0 { chaptic_wake(wakeDescriptor) }
  }

  /// A socket failure as a transport error: a reset or broken connection is `disconnected`.
  static func failure(_ code: Int32, name: String, doing: String) -> TransportError {
    switch code {
    case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
      return TransportError(.disconnected, port: name, "the connection went away (\(doing): \(String(cString: strerror(code))))", errno: code)
    default:
      return TransportError(.ioError, port: name, "\(doing) failed: \(String(cString: strerror(code)))", errno: code)
    }
  }
}
