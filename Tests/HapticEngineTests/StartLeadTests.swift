import Foundation
import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

@testable import HapticEngine

/// Where a start is placed (docs/protocol.md §8): half a recent delivery delay ahead on a link
/// that never lost a frame; a lossy link's lead (3× the delivery delay, at least two retransmission
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

  /// A link's statistics and where a start made now lands on it.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let deliveryDelay, retransmitTimeout: Double
    let recoveries: Int
    let isProven: Bool
    /// Seconds from the call to the onset: the lead, then less than a frame more.
    let lead: Double
    var testDescription: String { name }
  }

  static let cases = [
    // ½ × 10 ms.
    Case(name: "never lost a frame: half a delivery delay", deliveryDelay: 0.010, retransmitTimeout: 0.025, recoveries: 0, isProven: true, lead: 0.005),
    // 3 × max(4 ms, 2 × 10 ms) = 60 ms.
    Case(name: "lost frames: three delivery delays, at least two RTOs", deliveryDelay: 0.004, retransmitTimeout: 0.010, recoveries: 3, isProven: true, lead: 0.060),
    // 3 × max(5 ms, 2 × 25 ms) = 150 ms, the most a start waits.
    Case(name: "too new to tell, nothing lost yet: as a lossy link", deliveryDelay: 0.005, retransmitTimeout: 0.025, recoveries: 0, isProven: false, lead: 0.150),
  ]

  @Test("A start is placed the link's lead ahead", arguments: cases)
  func startLead(_ link: Case) throws {
    let lead = try Self.startToOnset {
      $0.deliveryDelay = link.deliveryDelay
      $0.retransmitTimeout = link.retransmitTimeout
      $0.recoveries = link.recoveries
      $0.isProven = link.isProven
    }
    #expect(lead > link.lead - 1e-6 && lead < link.lead + 0.003, "start → onset \(lead) s, lead \(link.lead) s")
  }

  @Test("A serial link opens unproven, and is proven once the host has sent 500 bytes")
  func serialLinkProves() throws {
    try Self.withSerialLink { link in
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

  /// A `SerialBoardLink` to a simulated board on its own thread, both closed after `body`.
  static func withSerialLink(_ body: (SerialBoardLink) throws -> Void) throws {
    let board = try ThreadedBoard()
    defer { board.close() }
    let link = try board.link()
    defer { link.close(stopDrive: true) }
    try body(link)
  }

  @Test("A serial link counts the board's full handling time while it drives, a short one at rest")
  func handlingWhileDriving() throws {
    try Self.withSerialLink { link in
      let slip = Double(SerialBoardLink.slip) * link.secondsPerByte
      #expect(abs(link.handlingLead - (slip + SerialBoardLink.idleHandling)) < 1e-9, "at rest: \(link.handlingLead) s")
      let synced = Date().addingTimeInterval(3)
      while link.boardSeconds(atHost: link.hostNow) == nil && Date() < synced { usleep(5_000) }
      // 50 ms of drive, 100 ms ahead: the board drives from now on, as far as the host can tell.
      let ticks = try #require(link.boardSeconds(atHost: link.hostNow)) * Double(link.capabilities.clockFrequency)
      let batch = SegmentBatch(
        channel: 0, startTime: UInt32(truncatingIfNeeded: UInt64(ticks) + UInt64(link.capabilities.clockFrequency / 10)), levelBytes: 1,
        segments: [SegmentBatch.Segment(frames: 50, startLevel: 60, endLevel: 60, startFrequency: 0, endFrequency: 0)])
      try link.send(.queueSegments(batch))
      #expect(abs(link.handlingLead - (slip + SerialBoardLink.boardHandling)) < 1e-9, "driving: \(link.handlingLead) s")
      #expect(link.minimumLead > Double(SerialBoardLink.shortestMessage) * link.secondsPerByte + slip + SerialBoardLink.boardHandling)
      usleep(useconds_t(SerialBoardLink.drivingWindow * 1e6) + 20_000)
      #expect(abs(link.handlingLead - (slip + SerialBoardLink.idleHandling)) < 1e-9, "after the window: \(link.handlingLead) s")
    }
  }
}
