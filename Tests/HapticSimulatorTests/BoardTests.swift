import HapticRenderer
import HapticWire
import Testing

@testable import HapticSimulator

/// The simulator as a board (docs/protocol.md, board side).
@Suite struct BoardTests {
  @Test func bootsWithAResetNoticeAndAnswersIdentify() throws {
    var host = VirtualHost()
    host.run(until: 0.001)
    host.send(.identify)
    #expect(host.received.first == .resetNotice(bootCount: 1, cause: .powerOn))
    let capabilities = try #require(host.received.compactMap { message -> BoardCapabilities? in
      if case .capabilities(let c) = message { return c } else { return nil }
    }.first)
    #expect(capabilities.boardID == "sim-lra")
    #expect(capabilities.channels.first?.kind == .lra)
    #expect(capabilities.features.contains(.frequencyControl) && capabilities.features.contains(.signedLevels))
  }

  @Test func clockHasOffsetAndDrift() {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.clockOffset = 5
    configuration.driftPPM = 200
    var host = VirtualHost(configuration)
    host.run(until: 10)
    host.send(.clockQuery(id: 9))
    guard case .clock(9, let ticks) = host.received.last else {
      Issue.record("no clock reply: \(host.received)")
      return
    }
    // 5 s offset + 10 s × (1 + 200 ppm) at 1 MHz.
    #expect(abs(Double(ticks) - 15_002_000) <= 1)
  }

  @Test func playsQueuedSegmentsFrameByFrameWithRounding() {
    var host = VirtualHost()
    host.board.logsDrive = true
    host.run(until: 0.010)
    let start = host.board.now + 5_000
    host.send(.queueSegments(VirtualHost.batch(start, [(4, 0, 3), (2, 100, 100), (1, -50, -50)])))
    host.run(until: 0.030)
    let levels = host.board.driveLog.map(\.level)
    // The ramp 0, 1, 2, 3 (its first frame changes only the frequency to 170 Hz), 100, 100,
    // −50 (brake), then 0 after the queue ends.
    #expect(levels == [0, 1, 2, 3, 100, -50, 0])
    let changes = host.board.driveLog
    #expect(changes[0].frequency == 170 && abs(changes[0].time - 0.015) < 0.0001)
    #expect(abs(changes[1].time - 0.016) < 0.0001)
    host.send(.statusRequest)
    #expect(host.lastStatus?.channels.first?.underruns == 1, "ran dry while braking")
  }

  @Test func replaceCutsTheQueueAtItsStartTime() {
    var host = VirtualHost()
    host.board.logsDrive = true
    host.run(until: 0.001)
    let start = host.board.now + 2_000
    host.send(.queueSegments(VirtualHost.batch(start, [(100, 50, 50)])))
    host.run(until: 0.010)
    host.send(.replaceSegments(VirtualHost.batch(start + 20_000, [(10, 90, 90)])))
    host.run(until: 0.050)
    let log = host.board.driveLog
    #expect(log.map(\.level) == [50, 90, 0])
    #expect(abs(log[1].time - 0.023) < 0.0002)
    #expect(abs(log[2].time - 0.033) < 0.0002)
  }

  @Test func lateBatchIsCountedAndItsPastSkipped() {
    var host = VirtualHost()
    host.board.logsDrive = true
    host.run(until: 0.050)
    let past = host.board.now - 10_000
    host.send(.queueSegments(VirtualHost.batch(past, [(5, 40, 40), (10, 70, 70)])))
    host.run(until: 0.070)
    host.send(.statusRequest)
    #expect(host.lastStatus?.channels.first?.lateSegments == 1)
    #expect(host.board.driveLog.first?.level == 70, "the 40-level part lay in the past")
  }

  @Test func fullQueueRefusesTheWholeBatch() {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.queueDepth = 4
    var host = VirtualHost(configuration)
    host.run(until: 0.001)
    host.send(.queueSegments(VirtualHost.batch(host.board.now + 1_000, Array(repeating: (5, 10, 10), count: 5))))
    #expect(host.errors.last == ProtocolError(code: .queueFull, messageType: 0x05, detail: 4))
    host.send(.statusRequest)
    #expect(host.lastStatus?.channels.first?.queueFill == 0)
  }

  @Test func stopZeroesAtOnce() {
    var host = VirtualHost()
    host.run(until: 0.001)
    host.send(.queueSegments(VirtualHost.batch(host.board.now, [(500, 100, 100)])))
    host.run(until: 0.050)
    #expect(host.board.currentDrive[0].level > 0.7)
    host.send(.stop(channels: 0xFF))
    host.run(until: 0.051)
    #expect(host.board.currentDrive[0].level == 0)
  }

  @Test func watchdogStopsDriveWhenTheHostGoesSilent() {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.watchdog = 0.040
    var host = VirtualHost(configuration)
    host.board.logsDrive = true
    host.run(until: 0.001)
    host.send(.queueSegments(VirtualHost.batch(host.board.now, [(5_000, 100, 100)])))
    let lastFrame = host.time
    host.run(until: 0.200)
    let stop = host.board.driveLog.last { $0.level == 0 }
    let stoppedAt = stop?.time ?? .infinity
    #expect(stoppedAt - lastFrame <= 0.040 + 0.0001, "drive zero within the watchdog time")
    #expect(stoppedAt - lastFrame >= 0.039)
    host.send(.heartbeat)  // a frame after the silence does not hide that it fired
    host.send(.statusRequest)
    #expect(host.lastStatus?.watchdog == .fired, "latched until a status reports it (§6.7)")
    host.send(.statusRequest)
    #expect(host.lastStatus?.watchdog == .idle, "reported once; nothing queued: idle")
    host.send(.queueSegments(VirtualHost.batch(host.board.now + 1_000, [(500, 80, 80)])))
    host.send(.statusRequest)
    #expect(host.lastStatus?.watchdog == .armed, "drive queued and the host heard: armed")
    #expect(host.board.counters.watchdogStops == 1)
  }

  @Test func badRequestsGetErrors() {
    var host = VirtualHost()
    host.run(until: 0.001)
    host.send(.setWatchdog(milliseconds: 5))
    #expect(host.errors.last?.code == .badPayload)
    host.send(.queueSegments(VirtualHost.batch(host.board.now, [(5, 1, 1)], channel: 3)))
    #expect(host.errors.last == ProtocolError(code: .badChannel, messageType: 0x05, detail: 3))
    host.send(.playROMEffect(channel: 0, library: 1, effect: 1, startTime: 0))
    #expect(host.errors.last?.code == .notSupported)
    let before = host.errors.count
    // An unknown message type, sent reliably: acknowledged and answered with unknownMessage.
    let bytes = host.link.send(type: 0x42, payload: [1, 2], now: host.time)
    host.sendRaw(bytes)
    #expect(host.errors.count == before + 1 && host.errors.last?.code == .unknownMessage)
  }

  @Test func corruptFramesAreCountedAndIgnored() {
    var host = VirtualHost()
    host.run(until: 0.001)
    var bytes = WireFrame(flags: [.reliable, .syn], session: 9, seq: 0, ack: 0, type: 1, payload: []).encoded()
    bytes[3] ^= 0x10
    host.sendRaw(bytes)
    host.send(.statusRequest)
    #expect(host.lastStatus?.badFrames == 1)
  }

  @Test func calibrationOnADriverBoard() {
    var host = VirtualHost(profile: .unoDRV2605L)
    host.run(until: 0.001)
    host.send(.calibrate(channel: 0))
    host.send(.queueSegments(VirtualHost.batch(host.board.now, [(5, 10, 10)])))
    #expect(host.errors.last?.code == .busy)
    host.run(until: 1.2)
    #expect(host.received.contains {
      if case .calibrationResult(let result) = $0 { return result.succeeded && result.resonantFrequency == 175 }
      return false
    })
  }

  @Test func resetSendsANoticeWithTheNextBootCount() {
    var host = VirtualHost()
    host.run(until: 0.010)
    host.board.reset(cause: .brownOut)
    host.run(until: 0.020)
    #expect(host.received.contains(.resetNotice(bootCount: 2, cause: .brownOut)))
  }

  @Test func noActuatorRefusesToPlay() {
    var configuration = SimulatorConfiguration(profile: .simLRA)
    configuration.noActuator = true
    var host = VirtualHost(configuration)
    host.send(.identify)
    #expect(host.received.contains {
      if case .capabilities(let c) = $0 { return c.channels.allSatisfy { $0.kind == .none } }
      return false
    })
    host.send(.queueSegments(VirtualHost.batch(host.board.now, [(5, 10, 10)])))
    #expect(host.errors.last?.code == .notSupported)
  }

  @Test func sameInputGivesTheSameBytesAndTrace() {
    func run() -> ([UInt8], [SimulatedBoard.DriveChange], [Double]) {
      var configuration = SimulatorConfiguration(profile: .simLRA)
      configuration.driftPPM = -150
      var host = VirtualHost(configuration)
      host.board.logsDrive = true
      host.run(until: 0.005)
      host.send(.identify)
      host.send(.queueSegments(VirtualHost.batch(host.board.now + 2_000, [(20, 127, 127), (8, -127, -127), (30, 60, 0)])))
      host.send(.clockQuery(id: 1))
      host.run(until: 0.080)
      host.send(.statusRequest)
      return (host.wire, host.board.driveLog, host.board.peakAcceleration)
    }
    let a = run()
    let b = run()
    #expect(a.0 == b.0)
    #expect(a.1 == b.1)
    #expect(a.2 == b.2 && a.2[0] > 0.5)
  }
}
