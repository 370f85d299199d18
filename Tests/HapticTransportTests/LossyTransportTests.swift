import Foundation
import HapticTransport
import HapticWire
import Testing

/// The reliable link over real transports (threads, wall clock) with fault injection both ways.
@Suite("Reliable link over a fault-injecting transport")
struct LossyTransportTests {
  final class Receiver: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [UInt32] = []
    private var done = false
    var values: [UInt32] { lock.withLock { received } }
    func add(_ value: UInt32) { lock.withLock { received.append(value) } }
    func stop() { lock.withLock { done = true } }
    var stopped: Bool { lock.withLock { done } }
  }

  /// An in-memory line answers in microseconds: a 5 ms minimum RTO keeps the test short.
  static let fastLink = ReliableLink.Configuration(timer: RetransmitTimer(initial: 0.005, minimum: 0.005))

  @Test("2,000 segment batches arrive exactly once and in order over 1 % drop and 0.1 % corruption")
  func lossy() throws {
    let (hostEnd, boardEnd) = LoopbackTransport.pair()
    let host = FaultInjectingTransport(hostEnd, faults: FaultModel(dropRate: 0.01, corruptRate: 0.001, seed: 11))
    let board = FaultInjectingTransport(boardEnd, faults: FaultModel(dropRate: 0.01, corruptRate: 0.001, seed: 12))
    let receiver = Receiver()
    let start = Date()
    @Sendable func now() -> Double { Date().timeIntervalSince(start) }
    let boardThread = Thread {
      var link = ReliableLink(session: 2, configuration: LossyTransportTests.fastLink)
      var decoder = FrameDecoder()
      while !receiver.stopped {
        guard let bytes = try? board.read(timeout: 0.002) else { return }
        let output = link.receive(decoder.feed(bytes), now: now())
        for frame in output.frames {
          if case .queueSegments(let batch)? = try? WireMessage.decode(type: frame.type, payload: frame.payload) {
            receiver.add(batch.startTime)
          }
        }
        try? board.write(output.bytes + link.poll(now: now()).bytes)
      }
    }
    boardThread.start()
    defer { receiver.stop() }

    let count = 2000
    var link = ReliableLink(session: 1, configuration: Self.fastLink)
    var decoder = FrameDecoder()
    var sent = 0
    while receiver.values.count < count && now() < 60 {
      while sent < count && link.unacknowledged < 16 {
        let batch = SegmentBatch(channel: 0, startTime: UInt32(sent), levelBytes: 1, segments: [
          .init(frames: 20, startLevel: sent % 100, endLevel: 0, startFrequency: 170, endFrequency: 170)
        ])
        try host.write(link.send(.queueSegments(batch), now: now()))
        sent += 1
      }
      let output = link.receive(decoder.feed(try host.read(timeout: 0.002)), now: now())
      try host.write(output.bytes + link.poll(now: now()).bytes)
    }
    let values = receiver.values
    #expect(values.count == count)
    #expect(values == (0..<UInt32(count)).map { $0 }, "exactly once, in order")
    #expect(link.statistics.retransmissions > 0)
  }
}
