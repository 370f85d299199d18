import Testing

@testable import HapticWire

/// A new host process whose random session id equals the previous process's (1 in 255 opens):
/// its SYN must start a session, not be dropped as a retransmission of the old one (§4.1).
@Suite("Session id reused by a new host")
struct SessionReuseTests {
  /// The board follows `old` after `frames` of its frames; returns the board and the bytes the
  /// board wrote last (its acknowledgement to the old host).
  static func boardFollowing(_ old: inout ReliableLink, frames: Int) -> ReliableLink {
    var board = ReliableLink(session: 1)
    var decoder = FrameDecoder()
    for id in 0..<frames {
      let out = board.receive(decoder.feed(old.send(.clockQuery(id: UInt16(id)), now: Double(id))), now: Double(id))
      #expect(out.frames.count == 1)
      _ = old.receive(decoder.feed(out.bytes), now: Double(id))
    }
    return board
  }

  /// Sends `host`'s identify to `board`; true when the board delivered it and started a session
  /// of its own that the host follows (its answer reaches the host).
  static func firstContact(_ host: inout ReliableLink, _ board: inout ReliableLink) -> Bool {
    var decoder = FrameDecoder()
    let received = board.receive(decoder.feed(host.send(.identify, now: 100)), now: 100)
    guard received.frames.map(\.type) == [WireMessage.Kind.identify.rawValue] else { return false }
    let answer = board.send(.clock(id: 1, boardTime: 5), now: 100)
    let delivered = host.receive(decoder.feed(received.bytes + answer), now: 100.001)
    return delivered.frames.map(\.type) == [WireMessage.Kind.clock.rawValue] && host.unacknowledged == 0
  }

  @Test("Same session id, same first number, the old session well past its SYN: a new session")
  func sameNumberOldSessionAdvanced() {
    var old = ReliableLink(session: 77, firstSequence: 5)
    var board = Self.boardFollowing(&old, frames: 20)
    var new = ReliableLink(session: 77, firstSequence: 5)
    #expect(Self.firstContact(&new, &board))
  }

  @Test("Same session id, another first number, the old session just begun: a new session")
  func otherNumberOldSessionNew() {
    var old = ReliableLink(session: 77, firstSequence: 200)
    var board = Self.boardFollowing(&old, frames: 2)
    var new = ReliableLink(session: 77, firstSequence: 201)
    #expect(Self.firstContact(&new, &board))
  }

  @Test("A retransmitted SYN of the followed session stays a duplicate, whatever its number")
  func retransmittedSyn() {
    var host = ReliableLink(session: 9, firstSequence: 250)
    var board = ReliableLink(session: 1)
    var decoder = FrameDecoder()
    let syn = decoder.feed(host.send(.identify, now: 0))
    var following = decoder.feed(host.send(.statusRequest, now: 0))
    following += decoder.feed(host.send(.statusRequest, now: 0))
    #expect(syn.first?.seq == 250 && syn.first?.flags.contains(.syn) == true)
    #expect(board.receive(syn + following, now: 0.001).frames.count == 3)
    // Go-back-N copies of all three arrive again: nothing delivered twice, no restart.
    let again = board.receive(syn + following, now: 0.002)
    #expect(again.frames.isEmpty && again.events.isEmpty)
    #expect(board.statistics.duplicatesDropped == 3)
  }

  @Test("Hosts draw session ids and first numbers at random")
  func hostLinksDiffer() {
    let links = (0..<64).map { _ in ReliableLink.host() }
    #expect(Set(links.map(\.firstSequence)).count > 32, "first numbers vary")
    #expect(Set(links.map(\.session)).count > 32, "session ids vary")
    #expect(!links.contains { $0.session == 0 }, "session 0 is never drawn")
  }
}
