import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

@testable import HapticEngine

/// Where a start is placed (docs/protocol.md §8): one recent delivery delay ahead on a link that
/// never lost a frame; a lossy link's lead (3× the delivery delay, at least two retransmission
/// timeouts, at most 150 ms) on one that did, and on one too new to tell: a `send` over a line at
/// 1 % byte loss whose handshake lost nothing lost its first batch and played it late.
@Suite struct StartLeadTests {
  /// The board seconds from a start made now to its onset, behind a link whose statistics
  /// `adjust` sets (a virtual clock: the lead alone decides).
  static func startToOnset(_ adjust: @escaping @Sendable (inout BoardLinkStatistics) -> Void) throws -> Double {
    let board = try SimulatorBoardLink(
      configuration: SimulatorConfiguration(profile: .simLRA), clock: .virtual, logsDrive: true)
    let engine = try HapticEngine(link: WrappedLink(board, adjust: adjust))
    try engine.start()
    defer { engine.close() }
    let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [EngineHarness.transient(at: 0)]))
    engine.advance(to: 0.1)
    let called = try #require(board.boardSeconds(atHost: board.hostNow))
    try player.start()
    engine.advance(to: 0.5)
    let onset = try #require(board.snapshot.driveLog.first { $0.level != 0 }, "no drive")
    return try #require(board.boardSeconds(atHost: onset.time)) - called
  }

  @Test("A link that never lost a frame: the start one delivery delay ahead")
  func provenClean() throws {
    let lead = try Self.startToOnset {
      $0.deliveryDelay = 0.005
    }
    #expect(lead > 0.004_999 && lead < 0.008, "start → onset \(lead) s")
  }

  @Test("A link that lost frames: three delivery delays, at least two retransmission timeouts")
  func lossy() throws {
    let lead = try Self.startToOnset {
      $0.deliveryDelay = 0.004
      $0.retransmitTimeout = 0.010
      $0.recoveries = 3
    }
    // 3 × max(4 ms, 2 × 10 ms) = 60 ms.
    #expect(lead > 0.059_999 && lead < 0.063, "start → onset \(lead) s")
  }

  @Test("A link too new to tell, that lost nothing yet: the lossy lead")
  func unproven() throws {
    let lead = try Self.startToOnset {
      $0.deliveryDelay = 0.005
      $0.retransmitTimeout = 0.025
      $0.isProven = false
    }
    // 3 × max(5 ms, 2 × 25 ms) = 150 ms, the most a start waits.
    #expect(lead > 0.149_999 && lead < 0.153, "start → onset \(lead) s")
  }

  @Test("A serial link opens unproven, and is proven once the host has sent 500 bytes")
  func serialLinkProves() throws {
    let board = try ThreadedBoard()
    defer { board.close() }
    let link = try board.link()
    defer { link.close(stopDrive: true) }
    let opened = link.statistics
    #expect(opened.bytesSent < SerialBoardLink.provenBytes && !opened.isProven, "after the handshake: \(opened.bytesSent) bytes")
    var id: UInt16 = 0x4000
    while link.statistics.bytesSent < SerialBoardLink.provenBytes {
      try link.send(.clockQuery(id: id))
      id &+= 1
    }
    #expect(link.statistics.isProven)
  }
}
