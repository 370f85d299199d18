import Foundation
import HapticLocks
import HapticRenderer
import HapticTransport
import HapticWire
import Testing

@testable import HapticSimulator

/// A served board takes what a ``TimedByteTransport`` hands it at its arrival, not when the
/// server's thread gets to it (issue 33: on a 2-core virtual machine a sleeping thread now and
/// then wakes milliseconds late; the served board then counted replaces that had reached it in
/// time as late).
@Suite struct ServerLineTimingTests {
  /// The board's side of a loopback pair, stamping each read at once and then, when asked,
  /// holding the server's thread as a late wake-up would before handing the bytes over.
  final class LateWakeTransport: TimedByteTransport, Sendable {
    let inner: LoopbackTransport
    /// The bytes whose read holds its caller, and for how many seconds. Keyed by the bytes, not
    /// "the next read": the host's acknowledgement of the first reply may still be on its way
    /// when the hold is set, and holding that read would stamp the query after it late.
    let hold = Locked<(bytes: [UInt8], seconds: Double)?>(nil)
    /// The arrival stamps handed out, in order, and the one of the read that held its caller.
    let stamps = Locked<(all: [ContinuousClock.Instant], held: ContinuousClock.Instant?)>(([], nil))

    init(_ inner: LoopbackTransport) { self.inner = inner }

    var name: String { inner.name }
    func write(_ bytes: [UInt8]) throws(TransportError) { try inner.write(bytes) }
    func read(timeout: Double) throws(TransportError) -> [UInt8] { try readTimed(timeout: timeout).flatMap(\.bytes) }
    func close() { inner.close() }

    func readTimed(timeout: Double) throws(TransportError) -> [TimedBytes] {
      let bytes = try inner.read(timeout: timeout)
      guard !bytes.isEmpty else { return [] }
      let arrival = ContinuousClock.now
      let wait = hold.withLock { hold -> Double in
        guard let wanted = hold, Self.contains(bytes, wanted.bytes) else { return 0 }
        hold = nil
        return wanted.seconds
      }
      stamps.withLock {
        $0.all.append(arrival)
        if wait > 0 { $0.held = arrival }
      }
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      return [TimedBytes(bytes, arrival: arrival)]
    }

    /// Whether `bytes` holds `part` as a run (a loopback read hands over whole writes).
    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
      guard !part.isEmpty, bytes.count >= part.count else { return false }
      return (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
    }
  }

  /// The board clock (ticks) in the reply to clock query `id`, waiting up to 2 s.
  func clockReply(
    _ id: UInt16, from host: LoopbackTransport, link: inout ReliableLink, decoder: inout FrameDecoder
  ) throws -> UInt64? {
    let deadline = ContinuousClock.now + .seconds(2)
    while ContinuousClock.now < deadline {
      let output = link.receive(decoder.feed(try host.read(timeout: 0.05)), now: 0)
      if !output.bytes.isEmpty { try host.write(output.bytes) }
      for frame in output.frames {
        if case .clock(id, let ticks)? = try? WireMessage.decode(type: frame.type, payload: frame.payload) { return ticks }
      }
    }
    return nil
  }

  @Test func aPieceIsTakenAtItsArrivalWhenTheServerWakesLate() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let transport = LateWakeTransport(boardSide)
    let server = SimulatorServer(board: SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA)), transport: transport)
    let thread = Thread { server.run() }
    thread.start()
    defer { server.stop() }
    var link = ReliableLink(session: 0x55)
    var decoder = FrameDecoder()
    Thread.sleep(forTimeInterval: 0.05)
    try host.write(link.send(.clockQuery(id: 1), now: 0))
    let first = try #require(try clockReply(1, from: host, link: &link, decoder: &decoder))
    // The second query reaches the board while its server's thread is held for 20 ms (under
    // the server's 50 ms catch-up bound).
    let query = link.send(.clockQuery(id: 2), now: 0.1)
    transport.hold.withLock { $0 = (query, 0.020) }
    try host.write(query)
    let second = try #require(try clockReply(2, from: host, link: &link, decoder: &decoder))
    let stamps = transport.stamps.withLock { $0 }
    // The first query is the first thing the host wrote.
    let between = try #require(stamps.held) - stamps.all[0]
    let expected = Double(between.components.seconds) + Double(between.components.attoseconds) * 1e-18
    // 1 MHz board clock, no drift: the board answered each query at its arrival.
    let answered = Double(second &- first) / 1_000_000
    #expect(abs(answered - expected) < 0.002, "answered \(answered * 1000) ms apart, arrived \(expected * 1000) ms apart")
  }
}
