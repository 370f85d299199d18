import Foundation
import HapticLocks
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

/// The probe over several rates (``LineRates``): hapticctl's boards talk at different rates,
/// and a serial line carries an answer only at the board's.
@Suite struct LineRateTests {
  /// A serial line to a board whose UART runs at `boardBaud`: what either side sends while the
  /// host's rate differs arrives as garbage (every byte 0xFF, no frame delimiter), as a UART
  /// reads bytes sent at a rate far from its own.
  final class SerialLine: ByteTransport, Sendable {
    let inner: any ByteTransport
    let boardBaud: Int
    /// Rates the port does not have (an adapter without 500 000).
    let refused: Set<Int>
    /// The host's rate now, and every rate the host set, in order.
    let state: Locked<(baud: Int, settings: [Int])>

    init(_ inner: any ByteTransport, boardBaud: Int, openedAt baud: Int, refused: Set<Int> = []) {
      self.inner = inner
      self.boardBaud = boardBaud
      self.refused = refused
      state = Locked((baud, []))
    }

    var name: String { inner.name }
    var acceptsAnyRate: Bool { false }
    var settings: [Int] { state.withLock { $0.settings } }
    private var matches: Bool { state.withLock { $0.baud == boardBaud } }

    func write(_ bytes: [UInt8]) throws(TransportError) {
      try inner.write(matches ? bytes : bytes.map { _ in 0xFF })
    }

    func read(timeout: Double) throws(TransportError) -> [UInt8] {
      let bytes = try inner.read(timeout: timeout)
      return matches ? bytes : bytes.map { _ in 0xFF }
    }

    func close() { inner.close() }

    func setBaud(_ baud: Int) throws(TransportError) {
      if refused.contains(baud) { throw TransportError(.unsupportedBaud, port: name, "cannot set \(baud) baud: Invalid argument") }
      state.withLock {
        $0.baud = baud
        $0.settings.append(baud)
      }
    }
  }

  static func probe(_ transport: any ByteTransport, _ rates: LineRates, timeout: Double = 2) throws -> Prober.RateProbe {
    let origin = MonotonicTime.seconds()
    return try Prober(timeout: timeout, clockSamples: 0).probe(transport, rates: rates) { MonotonicTime.seconds() - origin }
  }

  static let twoRates = LineRates(boards: [(id: "slow", baud: 115_200), (id: "fast", baud: 500_000)])

  @Test("On a serial line the probe tries each rate until the board answers, and the link counts at that rate")
  func findsTheBoardsRate() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    let line = SerialLine(host, boardBaud: 500_000, openedAt: 115_200)
    let found = try Self.probe(line, Self.twoRates)
    #expect(found.result.supportsHaptics)
    #expect(found.result.baud == 500_000)
    #expect(line.settings == [500_000], "the first rate (the port's) was tried first, then the line set to the second")
    #expect(found.link.configuration.bytePeriod == ReliableLink.Configuration.bytePeriod(baud: 500_000))
  }

  @Test("The board named first is tried first: the port opened at its rate, no other tried")
  func preferredFirst() throws {
    let rates = LineRates(boards: [(id: "slow", baud: 115_200), (id: "fast", baud: 500_000)], preferring: "fast")
    #expect(rates.candidates == [500_000, 115_200])
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    let line = SerialLine(host, boardBaud: 500_000, openedAt: 500_000)
    let found = try Self.probe(line, rates)
    #expect(found.result.baud == 500_000)
    #expect(line.settings.isEmpty)
  }

  @Test("A rate the port does not have is left out of the turns, not an error")
  func unsupportedRateSkipped() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    // The board talks at 115 200; the port, opened at 230 400, has no 500 000.
    let line = SerialLine(host, boardBaud: 115_200, openedAt: 230_400, refused: [500_000])
    let found = try Self.probe(
      line, LineRates(boards: [(id: "odd", baud: 230_400), (id: "fast", baud: 500_000), (id: "slow", baud: 115_200)]))
    #expect(found.result.supportsHaptics)
    #expect(found.result.baud == 115_200)
    #expect(line.settings == [115_200], "500 000 refused and left out")
    // Nothing answering: the reason names the rates the port has.
    let (quietHost, quietBoardSide) = LoopbackTransport.pair()
    let rates = LineRates(boards: [(id: "fast", baud: 500_000), (id: "slow", baud: 115_200), (id: "odd", baud: 230_400)])
    let quiet = try withExtendedLifetime(quietBoardSide) {
      try Self.probe(SerialLine(quietHost, boardBaud: 57_600, openedAt: 500_000, refused: [230_400]), rates, timeout: 0.5)
    }
    #expect(quiet.result.reason == "no answer within 0.5 s at 500000 or 115200 baud (is the board running hapticctl firmware?)")
  }

  @Test("No answer at any rate: the reason names the rates tried")
  func noRateAnswers() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    let line = SerialLine(host, boardBaud: 57_600, openedAt: 115_200)
    let found = try Self.probe(line, Self.twoRates, timeout: 0.7)
    #expect(!found.result.supportsHaptics)
    #expect(found.result.baud == nil)
    #expect(found.result.reason == "no answer within 0.7 s at 115200 or 500000 baud (is the board running hapticctl firmware?)")
    #expect(Set(line.settings) == [115_200, 500_000], "both rates tried")
  }

  @Test("--baud's one rate is the line's and the timers', whatever the board's file says")
  func fixedRate() throws {
    let (host, boardSide) = LoopbackTransport.pair()
    let board = ScriptedBoard(transport: boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer { board.stop() }
    let found = try Self.probe(host, .fixed(230_400))
    #expect(found.result.baud == 230_400)
    #expect(found.link.configuration.bytePeriod == ReliableLink.Configuration.bytePeriod(baud: 230_400))
  }

  @Test("A pseudo-terminal answers at any rate: the timers count at the rate the board's own file names")
  func pseudoTerminalTakesTheBoardFilesRate() throws {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let host = try Transports.open(path: pty.path, baud: 115_200)
    defer { host.close() }
    #expect(host.acceptsAnyRate)
    let rates = LineRates(boards: [(id: "other", baud: 115_200), (id: "sim-lra", baud: 500_000)])
    let found = try Self.probe(host, rates)
    #expect(found.result.baud == 500_000, "sim-lra's rate, though the first rate (115 200) carried the answer")
    #expect(found.link.configuration.bytePeriod == ReliableLink.Configuration.bytePeriod(baud: 500_000))
    // On a serial line the rate that carried the answer wins (its board file may be older).
    let (lineHost, lineBoard) = LoopbackTransport.pair()
    let other = ScriptedBoard(transport: lineBoard, capabilities: ScriptedBoard.lraCapabilities())
    defer { other.stop() }
    let serial = try Self.probe(SerialLine(lineHost, boardBaud: 115_200, openedAt: 115_200), rates)
    #expect(serial.result.baud == 115_200)
  }

  @Test("An open pseudo-terminal takes a new rate; 1200 is refused")
  func settingRates() throws {
    let pty = try PseudoTerminal()
    defer { pty.boardSide.close() }
    let host = try Transports.open(path: pty.path, baud: 115_200)
    defer { host.close() }
    try host.setBaud(500_000)
    #expect(throws: TransportError.self) { try host.setBaud(1200) }
  }
}
