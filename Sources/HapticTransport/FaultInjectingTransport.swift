public import HapticWire
import HapticLocks

/// Wraps a transport and damages what it writes: drops, bit flips and duplicated bytes (a
/// seeded ``HapticWire/FaultModel``), plus an optional disconnect after a number of writes.
/// For tests of the reliable link and the probe over a bad line.
public final class FaultInjectingTransport: ByteTransport {
  private let inner: any ByteTransport
  private let state: Locked<(faults: FaultModel, writes: Int)>
  private let disconnectAfterWrites: Int?

  /// Wraps `inner`.
  public init(_ inner: any ByteTransport, faults: FaultModel, disconnectAfterWrites: Int? = nil) {
    self.inner = inner
    state = Locked((faults, 0))
    self.disconnectAfterWrites = disconnectAfterWrites
  }

  public var name: String { inner.name }

  public func write(_ bytes: [UInt8]) throws(TransportError) {
    let (damaged, count) = state.withLock { state -> ([UInt8], Int) in
      state.writes += 1
      return (state.faults.apply(bytes), state.writes)
    }
    if let limit = disconnectAfterWrites, count > limit {
      inner.close()
      throw TransportError(.disconnected, port: name, "disconnected (fault injection)")
    }
    try inner.write(damaged)
  }

  public func read(timeout: Double) throws(TransportError) -> [UInt8] {
    try inner.read(timeout: timeout)
  }

  public func close() {
    inner.close()
  }

  public func setBaud(_ baud: Int) throws(TransportError) {
    try inner.setBaud(baud)
  }

  public var acceptsAnyRate: Bool { inner.acceptsAnyRate }

  public var interruptsReads: Bool { inner.interruptsReads }

  public func interruptRead() {
    inner.interruptRead()
  }
}
