import HapticLocks

extension BoardConnection {
  /// The connection's reader as a ``Reactor`` source: the reactor waits on the port's descriptor
  /// beside the other boards' and calls it when input came or a duty is due (a resend, a clock
  /// query, a heartbeat), as the reader thread's loop would after its read.
  final class ReactorReader: ReactorSource {
    let connection: BoardConnection
    let reactorDescriptor: Int32?

    init(connection: BoardConnection, descriptor: Int32) {
      self.connection = connection
      reactorDescriptor = descriptor
    }

    /// The reader's window, from connection seconds to the monotonic clock's.
    func reactorWindow() -> ReactorWindow? {
      let window = connection.readerWindow()
      return ReactorWindow(earliest: window.earliest + connection.start, latest: window.latest + connection.start)
    }

    /// What ``reactorRead()`` took, and when (connection seconds), until it is served.
    private let taken = Locked<(bytes: [UInt8], at: Double)?>(nil)

    func reactorRead() {
      let result = Result { () throws(TransportError) in try connection.transport.read(timeout: 0) }
      let at = connection.now
      taken.withLock { taken in
        switch result {
        case .success(let bytes): taken = (bytes, at)
        case .failure: taken = nil
        }
      }
      if case .failure(let error) = result { failure.withLock { $0 = error } }
    }

    /// A read that failed (the port went away), reported when served.
    private let failure = Locked<TransportError?>(nil)

    func reactorFire(readable: Bool) -> Bool {
      if let error = failure.withLock({ $0 }) {
        connection.finish(.disconnected(error.description))
        connection.state.withLock { $0.readerEnded = true }
        return false
      }
      let input = taken.withLock { taken in
        defer { taken = nil }
        return taken
      }
      guard connection.step(input?.bytes ?? [], receivedAt: input?.at, queries: false) else {
        connection.state.withLock { $0.readerEnded = true }
        return false
      }
      return true
    }

    func reactorIdle() {
      connection.sendDueClockQuery()
    }
  }
}
