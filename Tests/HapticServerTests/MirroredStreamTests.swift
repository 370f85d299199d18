import Foundation
import HapticServer
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

/// A serial board's stream: the server's picture of the board (what it sent, through the
/// actuator's physics) against the board itself, a real-time simulated board on a
/// pseudo-terminal.
@Suite("Board server: a serial board's stream")
struct MirroredStreamTests {
  @Test("The stream of a serial board shows what the board drives and feels: level as the board's, G within 5 % in the steady part, 0 after")
  func pictureFollowsTheBoard() async throws {
    let served = try SerialServedBoard()
    defer { served.close() }
    _ = try served.hub.play(SerialServedBoard.held(0.6), on: served.id)
    var steady: [(level: Double, board: Double, g: Double, boardG: Double)] = []
    let start = Date()
    var last: StreamSample.Channel?
    while Date().timeIntervalSince(start) < 1.2 {
      let sample = try #require(served.hub.sample(served.id))
      let board = served.server.snapshot
      let elapsed = Date().timeIntervalSince(start)
      let channel = try #require(sample.channels.first)
      if (0.25...0.5).contains(elapsed) {
        steady.append(
          (try #require(channel.level), board.currentDrive[0].level, try #require(channel.g), board.envelopes[0]))
      }
      last = channel
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(steady.count > 20, "\(steady.count) samples in the steady part")
    let worst = steady.map { abs($0.g - $0.boardG) / $0.boardG }.max() ?? 0
    print("serial board's picture: \(steady.count) steady samples, G within \(String(format: "%.2f", worst * 100)) % of the board's")
    for sample in steady {
      #expect(abs(sample.level - sample.board) < 0.01, "level \(sample.level), the board's \(sample.board)")
      #expect(sample.boardG > 0.1 && abs(sample.g - sample.boardG) < 0.05 * sample.boardG, "\(sample.g) G, the board's \(sample.boardG) G")
    }
    // 0.6 s after the drive ended: nothing driven, the actuator at rest.
    #expect(last?.level == 0 && (last?.g ?? 1) < 0.01, "\(String(describing: last))")
  }

  @Test("A picture nobody samples keeps only the drive still to play (its queue does not grow with every batch sent)")
  func unsampledPictureStaysSmall() throws {
    var board = SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA))
    for n in 0..<5_000 {
      // A 10 ms batch every 10 ms, the picture jumped (no physics) to each send.
      board.skip(to: Double(n) * 0.010)
      let start = UInt32(truncatingIfNeeded: board.now + 2_000)
      board.mirror(
        .queueSegments(
          SegmentBatch(
            channel: 0, startTime: start, levelBytes: 1,
            segments: [SegmentBatch.Segment(frames: 10, startLevel: 50, endLevel: 50, startFrequency: 0, endFrequency: 0)])))
    }
    #expect(board.status.channels[0].queueFill <= 2, "\(board.status.channels[0].queueFill) segments kept")
  }
}
