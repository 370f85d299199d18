import CHapticPosix
internal import CLibSerialPort
import HapticLocks

#if canImport(Glibc)
  import Glibc
#endif

/// A real serial port opened and configured through libserialport (8N1, no flow control, DTR
/// asserted), locked against other processes, with I/O on its descriptor like ``TTYTransport``.
public enum SerialPortTransport {
  /// Opens `path` at `baud` through libserialport.
  ///
  /// - Parameters:
  ///   - path: the device path (libserialport 0.1.1 wants the real `/dev/...` name).
  ///   - baud: the baud rate.
  ///   - displayName: the name used in messages (what the user typed); defaults to `path`.
  /// - Throws: ``TransportError`` naming the port.
  public static func open(path: String, baud: Int = 115_200, displayName: String? = nil) throws(TransportError)
    -> TTYTransport
  {
    let shown = displayName ?? path
    try TTYTransport.checkBaud(baud, port: shown)
    var handle: OpaquePointer?
    guard sp_get_port_by_name(path, &handle) == SP_OK, let port = handle else {
      throw TransportError(.portNotFound, port: shown, "no such serial port")
    }
    func fail(_ doing: String) -> TransportError {
      let code = Int32(sp_last_error_code())
      sp_close(port)
      sp_free_port(port)
      return code == EBUSY
        ? TransportError(.portBusy, port: shown, "port busy: another process has it open", errno: code)
        : TTYTransport.openError(code, port: shown).withMessagePrefix(doing)
    }
    guard sp_open(port, SP_MODE_READ_WRITE) == SP_OK else { throw fail("open") }
    var fd: Int32 = -1
    guard sp_get_port_handle(port, &fd) == SP_OK, fd >= 0 else { throw fail("get the descriptor of") }
    do {
      try TTYTransport.lockExclusively(fd: fd, port: shown)
    } catch {
      sp_close(port)
      sp_free_port(port)
      throw error
    }
    guard sp_set_baudrate(port, Int32(baud)) == SP_OK, sp_set_bits(port, 8) == SP_OK,
      sp_set_parity(port, SP_PARITY_NONE) == SP_OK, sp_set_stopbits(port, 1) == SP_OK,
      sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) == SP_OK, sp_set_dtr(port, SP_DTR_ON) == SP_OK
    else { throw fail("configure") }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    let owned = Locked<PortHandle?>(PortHandle(pointer: port))
    return TTYTransport(name: shown, descriptor: fd, acceptsAnyRate: false, closesDescriptor: false) {
      owned.withLock { handle in
        guard let port = handle?.pointer else { return }
        sp_close(port)
        sp_free_port(port)
        handle = nil
      }
    }
  }
}

/// A libserialport handle (C types never leave this file). Unchecked: the pointer is used only
/// inside its box's lock, to close and free it once.
private struct PortHandle: @unchecked Sendable {
  let pointer: OpaquePointer
}

extension TransportError {
  func withMessagePrefix(_ doing: String) -> TransportError {
    var copy = self
    copy.message = "cannot \(doing) the port: \(message)"
    return copy
  }
}
