import CHapticPosix

#if canImport(Glibc)
  import Glibc
#endif

/// Opens the right transport for a `--port` path.
public enum Transports {
  /// Opens `path` at `baud`: a board on another machine (`tcp://HOST:PORT`,
  /// `rfc2217://HOST:PORT`: ``NetworkTransport``), pseudo-terminals (which libserialport 0.1.1
  /// refuses) through termios, everything else through libserialport.
  ///
  /// - Throws: ``TransportError`` naming the port (not found, busy, permission, baud; a
  ///   malformed URL, a host that does not resolve or does not answer).
  public static func open(path: String, baud: Int = 115_200) throws(TransportError) -> any ByteTransport {
    if let address = try NetworkAddress.parse(path) {
      try TTYTransport.checkBaud(baud, port: path)
      return try NetworkTransport.open(address, baud: baud)
    }
    guard let real = realPath(path) else {
      throw TransportError(.portNotFound, port: path, "no such port")
    }
    if isPseudoTerminal(real) || !real.hasPrefix("/dev/") {
      return try TTYTransport.open(path: path, baud: baud)
    }
    do {
      return try SerialPortTransport.open(path: real, baud: baud, displayName: path)
    } catch where error.code == .portNotFound {
      // Devices libserialport does not know (USB gadgets, odd drivers): plain termios.
      return try TTYTransport.open(path: path, baud: baud)
    }
  }

  /// True for a pseudo-terminal's resolved path.
  static func isPseudoTerminal(_ real: String) -> Bool { real.hasPrefix("/dev/pts/") || real == "/dev/ptmx" }

  static func realPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}

/// A pseudo-terminal pair for a board served on this machine (the simulator, tests): the board
/// side talks through ``boardSide``; clients open ``path`` like a serial port.
public final class PseudoTerminal: Sendable {
  /// The client-side path, e.g. `/dev/pts/4`.
  public let path: String
  /// The board side of the pair.
  public let boardSide: TTYTransport

  /// Opens a new pair.
  public init() throws(TransportError) {
    var name = [CChar](repeating: 0, count: 256)
    let master = chaptic_open_pty(&name, name.count)
    guard master >= 0 else {
      throw TransportError(.ioError, port: "/dev/ptmx", "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))", errno: errno)
    }
    path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    boardSide = TTYTransport(name: "\(path) (board side)", descriptor: master, acceptsAnyRate: true)
  }

  /// Points the symbolic link `link` at ``path`` (replacing it atomically).
  public func link(at link: String) throws(TransportError) {
    guard chaptic_replace_symlink(path, link) == 0 else {
      throw TransportError(.ioError, port: link, "cannot create the link: \(String(cString: strerror(errno)))", errno: errno)
    }
  }
}
