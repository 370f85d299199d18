import HapticSimulator
import HapticWire

/// The in-process wire between the host's side of the link and the simulated board: what the
/// host sends reaches the board at once, and what the board answers is fed back to the host's
/// link (acknowledgements both ways) until nothing is left to exchange. A value:
/// `SimulatorBoardLink` keeps it behind its lock.
struct SimulatedWire: Sendable {
  var board: SimulatedBoard
  var host: ReliableLink
  var decoder: FrameDecoder
  var lastSent = 0.0
  var closed = false

  /// The host sends `message` at `now`; returns the messages the board sent back.
  mutating func send(_ message: WireMessage, at now: Double) -> [WireMessage] {
    lastSent = now
    return exchange(host.send(message, now: now), at: now)
  }

  /// Board time passes to `now`; heartbeats keep the watchdog quiet while the link is open.
  mutating func step(at now: Double) -> [WireMessage] {
    var messages = receive(board.advance(to: now), at: now)
    let poll = host.poll(now: now).bytes
    if !poll.isEmpty { messages += exchange(poll, at: now) }
    if !closed && now - lastSent >= 0.020 {
      lastSent = now
      messages += exchange(host.send(.heartbeat, now: now), at: now)
    }
    return messages
  }

  /// Host bytes reach the board at `now`; returns the messages the board sent back.
  private mutating func exchange(_ bytes: [UInt8], at now: Double) -> [WireMessage] {
    var messages = receive(board.advance(to: now), at: now)
    if !bytes.isEmpty { messages += receive(board.receive(bytes), at: now) }
    return messages
  }

  /// Board bytes reach the host's link; its acknowledgements go back to the board.
  private mutating func receive(_ bytes: [UInt8], at now: Double) -> [WireMessage] {
    guard !bytes.isEmpty else { return [] }
    let output = host.receive(decoder.feed(bytes), now: now)
    var messages: [WireMessage] = []
    for frame in output.frames {
      if let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) { messages.append(message) }
    }
    if !output.bytes.isEmpty { messages += receive(board.receive(output.bytes), at: now) }
    return messages
  }
}
