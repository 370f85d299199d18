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

    /// What ``reactorRead()`` took and when (connection seconds), or the read's failure (the
    /// port went away), until it is served.
    private let taken = Locked<Result<(bytes: [UInt8], at: Double), TransportError>?>(nil)

    func reactorRead() {
      let result = Result { () throws(TransportError) in try connection.transport.read(timeout: 0) }
      let at = connection.now
      taken.withLock { $0 = result.map { ($0, at) } }
    }

    func reactorFire(readable: Bool) -> Bool {
      let input = taken.withLock { taken in
        defer { taken = nil }
        return taken
      }
      let goesOn: Bool
      switch input {
      case .failure(let error):
        connection.finish(.disconnected(error.description), cause: error)
        goesOn = false
      case .success(let read): goesOn = connection.step(read.bytes, receivedAt: read.at, queries: false)
      case nil: goesOn = connection.step([], queries: false)
      }
      if !goesOn { connection.state.withLock { $0.readerEnded = true } }
      return goesOn
    }

    func reactorIdle() {
      connection.sendDueClockQuery()
    }
  }
}
