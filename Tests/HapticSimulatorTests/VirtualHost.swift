import HapticRenderer
import HapticWire

@testable import HapticSimulator

/// A host on a virtual clock wired straight to a ``SimulatedBoard``: what it sends reaches the
/// board at once, and the board's replies come back as decoded messages.
struct VirtualHost {
  var board: SimulatedBoard
  var link = ReliableLink(session: 0x77)
  var decoder = FrameDecoder()
  /// Every message the board sent, in order.
  var received: [WireMessage] = []
  /// Bytes the board sent (to compare runs).
  var wire: [UInt8] = []

  init(_ configuration: SimulatorConfiguration) {
    board = SimulatedBoard(configuration: configuration)
  }

  init(profile: BoardProfile = .simLRA) {
    self.init(SimulatorConfiguration(profile: profile))
  }

  var time: Double { board.time }

  /// Sends a message reliably at the board's current time and takes the replies.
  mutating func send(_ message: WireMessage) {
    let bytes = link.send(message, now: board.time)
    deliver(board.receive(bytes))
  }

  /// Sends raw bytes (for corrupt or foreign frames).
  mutating func sendRaw(_ bytes: [UInt8]) {
    deliver(board.receive(bytes))
  }

  /// Runs the board to `t`, answering with acknowledgements as a host would.
  mutating func run(until t: Double, step: Double = 0.001) {
    while board.time + step <= t + 1e-12 {
      deliver(board.advance(to: board.time + step))
    }
    deliver(board.advance(to: t))
  }

  private mutating func deliver(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    wire += bytes
    let output = link.receive(decoder.feed(bytes), now: board.time)
    for frame in output.frames {
      if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) { received.append(message) }
    }
    if !output.bytes.isEmpty { deliver(board.receive(output.bytes)) }
  }

  /// The latest `status` received.
  var lastStatus: BoardStatus? {
    for message in received.reversed() { if case .status(let status) = message { return status } }
    return nil
  }

  /// Error replies received.
  var errors: [ProtocolError] {
    received.compactMap { if case .error(let error) = $0 { return error } else { return nil } }
  }

  /// A batch on channel 0 starting at board tick `start`.
  static func batch(_ start: UInt64, _ segments: [(frames: Int, from: Int, to: Int)], channel: UInt8 = 0) -> SegmentBatch {
    SegmentBatch(
      channel: channel, startTime: UInt32(truncatingIfNeeded: start), levelBytes: 1,
      segments: segments.map {
        SegmentBatch.Segment(frames: $0.frames, startLevel: $0.from, endLevel: $0.to, startFrequency: 170, endFrequency: 170)
      })
  }
}
