/// A piece of input and the moment its last byte reaches the reading end.
public struct TimedBytes: Sendable, Equatable {
  /// The bytes, in the order they were sent.
  public var bytes: [UInt8]
  /// When the last of them arrives (monotonic); after the read that returned them when they are
  /// still on the line.
  public var arrival: ContinuousClock.Instant

  /// A piece of input arriving at `arrival`.
  public init(_ bytes: [UInt8], arrival: ContinuousClock.Instant) {
    self.bytes = bytes
    self.arrival = arrival
  }
}

/// A byte transport that models a line's timing (a UART's serialization, say) and so knows when
/// what it returns reaches the reading end — possibly later than the read, while the bytes are
/// still on the line.
///
/// A simulated board served on one (`SimulatorServer`) takes each piece at its arrival in
/// simulated time, as a microcontroller's receive interrupt takes a byte when it lands, rather
/// than whenever the simulation's thread next wakes: a thread sleeping on a timer can be woken
/// milliseconds late by the host's scheduler (on the 2-core virtual machines of CI, a C loop of
/// `usleep(200 µs)` overslept by over 2 ms 7 times in 60 000), and that should delay the
/// simulation's catch-up, not the board's handling of what reached it.
public protocol TimedByteTransport: ByteTransport {
  /// Waits up to `timeout` seconds for input and returns what was read, in order, in pieces
  /// with their arrivals (empty on timeout).
  func readTimed(timeout: Double) throws(TransportError) -> [TimedBytes]
}
