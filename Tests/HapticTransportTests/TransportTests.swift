import Foundation
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

@Suite("Transports and the capability probe", .serialized)
struct TransportTests {
  @Test("Loopback pairs carry bytes both ways and report a closed end")
  func loopback() throws {
    let (a, b) = LoopbackTransport.pair()
    try a.write([1, 2, 3])
    #expect(try b.read(timeout: 0.1) == [1, 2, 3])
    try b.write([9])
    #expect(try a.read(timeout: 0.1) == [9])
    #expect(try a.read(timeout: 0.01) == [])
    b.close()
    #expect(throws: TransportError.self) { try a.write([1]) }
  }

  @Test("The probe reads capabilities, round trip and clock over a loopback")
  func probeLoopback() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(), driftPPM: 150)
    defer { board.stop() }
    let result = try Prober(timeout: 2, clockSamples: 24).probe(host)
    #expect(result.supportsHaptics)
    #expect(result.reason == nil)
    #expect(result.capabilities?.boardID == "sim-lra")
    #expect(result.protocolVersion == 1)
    #expect((result.roundTrip ?? 1) < 0.05)
    #expect(abs((result.clockOffset ?? 0) - 5) < 0.05, "board clock runs 5 s ahead")
    // Over a one-second probe on a loaded machine the drift is only roughly known (round-trip
    // jitter / span), so only its presence is checked here; ClockSyncTests checks accuracy.
    let drift = try #require(result.driftPPM)
    #expect(drift.isFinite && abs(drift) < 10_000)
  }

  @Test("No actuator, silence and another version each give the documented reason")
  func probeReasons() throws {
    do {
      let (host, boardSide) = LoopbackTransport.pair()
      let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(actuator: .none))
      defer { board.stop() }
      let result = try Prober(timeout: 1, clockSamples: 4).probe(host)
      #expect(!result.supportsHaptics)
      #expect(result.reason?.hasPrefix("no actuator reported") == true)
    }
    do {
      let (host, boardSide) = LoopbackTransport.pair()
      let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(), behaviour: .silent)
      defer { board.stop() }
      let started = Date()
      let result = try Prober(timeout: 0.3, clockSamples: 4).probe(host)
      #expect(!result.supportsHaptics)
      #expect(result.reason?.hasPrefix("no answer within 0.3 s") == true)
      #expect(Date().timeIntervalSince(started) < 1, "bounded by the timeout")
      #expect(board.received >= 2, "the identify was retransmitted")
    }
    do {
      let (host, boardSide) = LoopbackTransport.pair()
      let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities(), behaviour: .version(2))
      defer { board.stop() }
      let result = try Prober(timeout: 1, clockSamples: 4).probe(host)
      #expect(!result.supportsHaptics)
      #expect(result.reason?.hasPrefix("unsupported protocol version 2") == true)
    }
  }

  @Test("The probe survives a lossy line")
  func probeLossy() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let faulty = FaultInjectingTransport(host, faults: FaultModel(dropRate: 0.02, corruptRate: 0.01, seed: 5))
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    let result = try Prober(timeout: 3, clockSamples: 8).probe(faulty)
    #expect(result.supportsHaptics)
  }

  @Test("A pseudo-terminal carries the protocol through the termios transport")
  func probePty() throws {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let host = try Transports.open(path: pty.path, baud: 1_000_000)
    defer { host.close() }
    let result = try Prober(timeout: 2, clockSamples: 8).probe(host)
    #expect(result.supportsHaptics)
    #expect(result.port == pty.path)
  }

  @Test("A read waits the fraction of a millisecond it is given (poll's whole milliseconds made it 0: a busy loop)")
  func subMillisecondRead() throws {
    let pty = try PseudoTerminal()
    defer { pty.boardSide.close() }
    let host = try Transports.open(path: pty.path, baud: 1_000_000)
    defer { host.close() }
    var waits: [Duration] = []
    for _ in 0..<20 {
      let started = ContinuousClock.now
      #expect(try pty.boardSide.read(timeout: 0.0004).isEmpty)
      waits.append(ContinuousClock.now - started)
    }
    // A sleep never ends early; poll's whole milliseconds made this 0.
    #expect(waits.allSatisfy { $0 >= .microseconds(400) }, "\(waits)")
  }

  @Test("Opening errors name the port: missing, busy, 1200 baud, unsupported baud")
  func openErrors() throws {
    do {
      _ = try Transports.open(path: "/dev/does-not-exist")
      Issue.record("opened a missing port")
    } catch {
      #expect(error.code == .portNotFound)
      #expect(error.description.contains("/dev/does-not-exist"))
    }
    let pty = try PseudoTerminal()
    defer { pty.boardSide.close() }
    let first = try Transports.open(path: pty.path)
    defer { first.close() }
    do {
      _ = try Transports.open(path: pty.path)
      Issue.record("opened a busy port twice")
    } catch {
      #expect(error.code == .portBusy)
      #expect(error.description.contains(pty.path))
    }
    for baud in [1200, 12345] {
      do {
        _ = try TTYTransport.open(path: pty.path, baud: baud)
        Issue.record("accepted \(baud) baud")
      } catch {
        #expect(error.code == .unsupportedBaud)
      }
    }
  }

  @Test("Closing the board side of a pty disconnects the client")
  func disconnect() throws {
    let pty = try PseudoTerminal()
    let host = try Transports.open(path: pty.path)
    defer { host.close() }
    pty.boardSide.close()
    var sawDisconnect = false
    for _ in 0..<20 {
      do {
        _ = try host.read(timeout: 0.05)
      } catch {
        sawDisconnect = error.code == .disconnected
        break
      }
    }
    #expect(sawDisconnect)
  }

  @Test("Port listing works without hardware")
  func portList() {
    let ports = PortList.ports()
    #expect(ports.allSatisfy { !$0.name.isEmpty })
    #expect(ports == ports.sorted { $0.name < $1.name })
  }
}
