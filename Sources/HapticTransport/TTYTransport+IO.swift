import Glibc
import CHapticPosix
import SystemPackage

/// Reading and writing a non-blocking descriptor with deadlines: swift-system's
/// `FileDescriptor` for the calls themselves (it retries on `EINTR`), `poll` and `ppoll` for the
/// waits.
extension TTYTransport {
  /// Writes all of `bytes`, waiting for room while the port is full; a write that cannot
  /// finish within 1 s is a timeout.
  static func writeAll(_ bytes: [UInt8], to fd: FileDescriptor, name: String) throws(TransportError) {
    var offset = 0
    var waited = 0
    while offset < bytes.count {
      do {
        offset += try bytes.withUnsafeBytes { buffer in
          try fd.write(UnsafeRawBufferPointer(rebasing: buffer[offset...]), retryOnInterrupt: true)
        }
      } catch Errno.wouldBlock {
        try waitForRoom(fd.rawValue, waited: &waited, name: name, doing: "write")
      } catch {
        throw ioError(Self.code(of: error), port: name, doing: "write")
      }
    }
  }

  /// Waits up to `timeout` for input and returns what arrived (empty on timeout or a signal).
  /// A timeout of 0 reads at once, without a `ppoll` first (the descriptor is non-blocking): a
  /// ``Reactor`` reads so once its own wait found the port readable.
  static func readSome(from fd: FileDescriptor, wake: Int32, timeout: Double, name: String) throws(TransportError) -> [UInt8] {
    if timeout > 0 { guard try waitForInput(fd.rawValue, wake: wake, timeout: timeout, name: name) else { return [] } }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count: Int
    do {
      count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0, retryOnInterrupt: true) }
    } catch Errno.wouldBlock {
      return []
    } catch {
      let code = Self.code(of: error)
      if code == EIO { throw disconnected(name) }
      throw ioError(code, port: name, doing: "read")
    }
    if count > 0 { return Array(buffer[0..<count]) }
    // End of file: the device went away, or a pseudo-terminal's other end closed.
    throw disconnected(name)
  }

  /// Waits up to 50 ms for room to write on `fd`; once a write has waited 1 s in all
  /// (`waited`, ms) it is a timeout. Shared with ``NetworkTransport``.
  static func waitForRoom(_ fd: Int32, waited: inout Int, name: String, doing: String) throws(TransportError) {
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    if poll(&entry, 1, 50) == 0 {
      waited += 50
      if waited >= 1000 { throw TransportError(.timeout, port: name, "\(doing) timed out after 1 s") }
    }
  }

  /// Waits up to `timeout` for input on `fd`; true when there is some (or the far end hung
  /// up), false on the timeout, a signal or a wake of `wake` (the transport's eventfd, or -1).
  /// To the nanosecond: poll's whole milliseconds would truncate a served board's sub-frame
  /// wait to 0 (a busy loop) or round it up (a late reply, and a skewed clock sync). Shared
  /// with ``NetworkTransport``.
  static func waitForInput(_ fd: Int32, wake: Int32, timeout: Double, name: String) throws(TransportError) -> Bool {
    var revents: Int16 = 0
    var woken: Int32 = 0
    let ready = chaptic_wait_readable(fd, wake, Int64(max(0, min(timeout, 60)) * 1e9), &revents, &woken)
    if ready < 0 {
      if errno == EINTR { return false }
      throw ioError(errno, port: name, doing: "poll")
    }
    if ready == 0 { return false }
    if revents & Int16(POLLNVAL) != 0 { throw TransportError(.closed, port: name, "the port is closed") }
    return true
  }

  static func ioError(_ code: Int32, port: String, doing: String) -> TransportError {
    if code == EIO || code == ENXIO || code == ENODEV {
      return TransportError(.disconnected, port: port, "the device went away (\(doing): \(String(cString: strerror(code))))", errno: code)
    }
    return TransportError(.ioError, port: port, "\(doing) failed: \(String(cString: strerror(code)))", errno: code)
  }

  private static func disconnected(_ name: String) -> TransportError {
    TransportError(.disconnected, port: name, "the device went away (or its other end closed)")
  }

  private static func code(of error: any Error) -> Int32 {
    (error as? Errno)?.rawValue ?? EIO
  }
}
