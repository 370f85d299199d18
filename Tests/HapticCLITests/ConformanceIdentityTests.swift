import HapticWire
import Testing

/// Protocol v1.1's identity (docs/protocol.md §6.11, issue 32 point 4) on every board: the
/// feature is announced; a board with no serial answers 0, keeps the first serial a host
/// assigns and no later one; malformed requests are `badPayload`.
extension ConformanceTests {
  @Test("Identity: announced, assigned once and kept, malformed requests refused", arguments: targets)
  func identity(_ target: Target) throws {
    try Self.withBoard(target) { host in
      let capabilities = try #require(try host.identify())
      #expect(capabilities.features.contains(.identity), "bit 6 announced")
      func ask(_ assign: UInt32?) throws -> UInt32? {
        try host.send(.identityRequest(assign: assign))
        let reply = try host.wait(timeout: 1) { if case .identity = $0 { return true } else { return false } }
        if case .identity(let serial)? = reply?.message { return serial }
        return nil
      }
      #expect(try ask(nil) == 0, "a fresh board keeps no serial")
      #expect(try ask(0x1A2B_3C4D) == 0x1A2B_3C4D, "the first assignment is kept")
      #expect(try ask(0x5555_AAAA) == 0x1A2B_3C4D, "a later one does not replace it")
      #expect(try ask(nil) == 0x1A2B_3C4D)
      for payload: [UInt8] in [[1], [1, 2, 3], [1, 2, 3, 4, 5], [0, 0, 0, 0]] {
        try host.sendReliable(type: WireMessage.Kind.identityRequest.rawValue, payload: payload)
        #expect(
          try Self.nextError(host) == ProtocolError(code: .badPayload, messageType: 0x11, detail: 0),
          "\(payload.count) bytes \(payload)")
      }
      #expect(try ask(nil) == 0x1A2B_3C4D, "refused requests change nothing")
    }
  }
}
