import HapticLocks

#if canImport(Glibc)
  import Glibc
#endif

/// An in-memory, in-process byte pipe pair: what one end writes the other reads.
public final class LoopbackTransport: ByteTransport {
  private final class Pipe: Sendable {
    struct State {
      var bytes: [UInt8] = []
      var closed = false
    }
    let state = Locked(State())
  }

  public let name: String
  private let incoming: Pipe
  private let outgoing: Pipe
  private let closedHere = Locked(false)

  private init(name: String, incoming: Pipe, outgoing: Pipe) {
    self.name = name
    self.incoming = incoming
    self.outgoing = outgoing
  }

  /// Two connected ends.
  public static func pair(names: (String, String) = ("loopback-a", "loopback-b")) -> (LoopbackTransport, LoopbackTransport) {
    let aToB = Pipe()
    let bToA = Pipe()
    return (
      LoopbackTransport(name: names.0, incoming: bToA, outgoing: aToB),
      LoopbackTransport(name: names.1, incoming: aToB, outgoing: bToA)
    )
  }

  public func write(_ bytes: [UInt8]) throws(TransportError) {
    if closedHere.withLock({ $0 }) { throw TransportError(.closed, port: name, "the port is closed") }
    let ok = outgoing.state.withLock { state -> Bool in
      guard !state.closed else { return false }
      state.bytes += bytes
      return true
    }
    if !ok { throw TransportError(.disconnected, port: name, "the other end is closed") }
  }

  public func read(timeout: Double) throws(TransportError) -> [UInt8] {
    if closedHere.withLock({ $0 }) { throw TransportError(.closed, port: name, "the port is closed") }
    var waited = 0.0
    while true {
      let (bytes, closed) = incoming.state.withLock { state -> ([UInt8], Bool) in
        defer { state.bytes.removeAll(keepingCapacity: true) }
        return (state.bytes, state.closed)
      }
      if !bytes.isEmpty { return bytes }
      if closed { throw TransportError(.disconnected, port: name, "the other end is closed") }
      if waited >= timeout { return [] }
      usleep(200)
      waited += 0.0002
    }
  }

  public func close() {
    closedHere.withLock { $0 = true }
    incoming.state.withLock { $0.closed = true }
    outgoing.state.withLock { $0.closed = true }
  }
}
