import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

/// The points where the boards used to differ, as docs/protocol.md now decides them (issue 13);
/// the firmware's C tests check the same on the Uno.
@Suite struct BoardRulesTests {
  @Test("An unreliable frame of an unknown type is ignored; a reliable one is answered")
  func unknownUnreliable() {
    var host = VirtualHost()
    host.run(until: 0.001)
    let before = host.errors.count
    host.sendRaw(WireFrame(flags: [], session: 0x77, seq: 0, ack: 0, type: 0x42, payload: [1]).encoded())
    #expect(host.errors.count == before, "no reply to an unreliable frame")
    host.sendRaw(host.link.send(type: 0x42, payload: [1], now: host.time))
    #expect(host.errors.last == ProtocolError(code: .unknownMessage, messageType: 0x42, detail: 0))
  }

  @Test("unsupportedVersion names the offending frame's type and the board's version")
  func otherVersion() {
    var host = VirtualHost()
    host.run(until: 0.001)
    host.sendRaw(WireFrame(version: 2, flags: [.reliable], session: 0x77, seq: 0, ack: 0, type: 0x0A, payload: []).encoded())
    #expect(host.errors.last == ProtocolError(code: .unsupportedVersion, messageType: 0x0A, detail: 1))
  }

  @Test("A level beyond full scale drives and reports full scale; frequencies clamp to the range, 0 Hz is f0")
  func clamping() throws {
    var host = VirtualHost()
    host.board.logsDrive = true
    host.run(until: 0.001)
    let batch = SegmentBatch(
      channel: 0, startTime: UInt32(host.board.now + 2_000), levelBytes: 2,
      segments: [.init(frames: 20, startLevel: 300, endLevel: 300, startFrequency: 1_000, endFrequency: 1_000)])
    host.send(.queueSegments(batch))
    host.run(until: host.time + 0.010)
    host.send(.statusRequest)
    let maxLevel = BoardProfile.simLRA.maxLevel
    #expect(host.lastStatus?.channels.first?.level == Int16(maxLevel))
    #expect(host.board.driveLog.map(\.level).max() == maxLevel)
    let range = try #require(BoardProfile.simLRA.frequencyControl)
    // 1000 Hz is far above the band: the carrier runs at its top.
    #expect(host.board.currentDrive[0].frequency == range.upperBound)
  }

  @Test("stop with bits for channels the board lacks stops what it has, without an error")
  func stopMask() {
    var host = VirtualHost()
    host.run(until: 0.001)
    host.send(.queueSegments(VirtualHost.batch(host.board.now + 1_000, [(200, 90, 90)])))
    host.run(until: host.time + 0.005)
    let before = host.errors.count
    host.send(.stop(channels: 0xFF))
    host.run(until: host.time + 0.002)
    #expect(host.errors.count == before)
    #expect(host.board.currentDrive[0].level == 0)
  }
}
