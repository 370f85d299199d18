import HapticWire
import Testing

@testable import HapticTransport

/// How often a link asks the board's clock (`BoardConnection.queryInterval`, docs/protocol.md
/// §8): quickly while synchronising, then at `clockInterval`, and at `clockSettledInterval` only
/// once the fit holds enough round trips and the fastest of them pins the board's clock closely.
/// A rig's local boards so go from ten queries a second to two; a board behind a UART or a
/// network, whose answers each say less, keeps ten (its skew needs them: docs/rigs.md).
@Suite struct ClockQueryRateTests {
  /// A rig's link settings: ten a second, two once settled.
  static var rig: BoardConnection.Configuration {
    var configuration = BoardConnection.Configuration()
    configuration.clockInterval = 0.1
    configuration.clockSettledInterval = 0.5
    return configuration
  }

  /// A fit of `count` answers from a 1 MHz board 100 ppm fast, one every 0.1 s, each round
  /// trip `roundTrip(index)` seconds with the board reading its clock in its middle.
  static func fit(_ count: Int, roundTrip: (Int) -> Double) -> ClockSync {
    var sync = ClockSync(clockFrequency: 1_000_000)
    for index in 0..<count {
      let sent = 10 + Double(index) * 0.1
      let trip = roundTrip(index)
      let boardSeconds = 3 + (sent + trip / 2) * (1 + 100e-6)
      sync.add(hostSend: sent, hostReceive: sent + trip, boardTicks: UInt64(boardSeconds * 1_000_000))
    }
    return sync
  }

  @Test("A local board's fit settles to two queries a second after 64 round trips; before, ten")
  func localBoardSettles() throws {
    let jittery: (Int) -> Double = { 0.12e-3 + Double($0 % 7) * 0.05e-3 }
    #expect(BoardConnection.queryInterval(for: Self.fit(2, roundTrip: jittery), Self.rig) == 0.050, "synchronising")
    #expect(BoardConnection.queryInterval(for: Self.fit(63, roundTrip: jittery), Self.rig) == 0.1)
    let settled = Self.fit(64, roundTrip: jittery)
    #expect(abs(try #require(settled.minimumRoundTrip) - 0.12e-3) < 1e-9)
    #expect(BoardConnection.queryInterval(for: settled, Self.rig) == 0.5)
  }

  @Test("Behind a UART (1 ms) or a network (3 ms) the link keeps asking ten times a second")
  func slowLinesKeepTheFastRate() {
    for fastest in [1.09e-3, 2.7e-3, BoardConnection.settledRoundTrip + 1e-6] {
      let sync = Self.fit(256) { fastest + Double($0 % 5) * 0.2e-3 }
      #expect(BoardConnection.queryInterval(for: sync, Self.rig) == 0.1, "fastest round trip \(fastest) s")
    }
  }

  @Test("A link without a settled interval (a board alone) keeps its interval whatever the line")
  func aBoardAloneKeepsItsInterval() {
    let sync = Self.fit(256) { _ in 0.1e-3 }
    #expect(BoardConnection.queryInterval(for: sync, BoardConnection.Configuration()) == 0.9839)
  }

  @Test("The fit's residual: the spread of its chosen readings about the line, not of the round trips")
  func residual() throws {
    // Readings on the line: no residual to speak of (the ticks' rounding: under a microsecond).
    let exact = Self.fit(100) { _ in 0.2e-3 }
    #expect(try #require(exact.residual) < 1e-6)
    // Every third answer's reading 60 µs late within equal round trips: the fit chooses them all
    // (equal round trips), and they spread about the line by tens of microseconds.
    var sync = ClockSync(clockFrequency: 1_000_000)
    for index in 0..<120 {
      let sent = 10 + Double(index) * 0.1
      let skewed = index % 3 == 0 ? 60e-6 : 0
      let boardSeconds = 3 + (sent + 0.1e-3 + skewed) * (1 + 100e-6)
      sync.add(hostSend: sent, hostReceive: sent + 0.2e-3, boardTicks: UInt64(boardSeconds * 1_000_000))
    }
    let residual = try #require(sync.residual)
    #expect(residual > 20e-6 && residual < 40e-6, "residual \(residual * 1e6) µs (expected about 28: 60 µs on a third)")
  }
}
