import Testing

/// The RTP trace comparison the emulated-board tests rely on: what it accepts, what it counts
/// as a failure, and how it classifies failures (a late frame, a board clock off by a Timer1
/// period).
@Suite("RTP trace comparison")
struct RTPComparisonTests {
  static func writes(_ pairs: [(Int, Int)]) -> [EmulatorTrace.Write] {
    pairs.map { EmulatorTrace.Write(microseconds: $0.0, register: 0x02, value: $0.1) }
  }

  @Test func aTraceThatFollowsTheFramesMatches() throws {
    let levels = [0, 10, 13, 16, 19, 22, 0]
    let trace = Self.writes([(5_000, 10), (6_000, 13), (7_100, 16), (8_000, 20), (9_000, 22), (10_000, 0)])
    let comparison = try #require(RTPComparison.compare(writes: trace, levels: levels))
    #expect(comparison.failureCount == 0)
    #expect(comparison.worstValueDeviation == 1)
  }

  @Test func aValueHeldTwoFramesTooLongIsALateFrameNotAWrongOne() throws {
    // Frames 1…6 ramp by 3; the board holds 13 from 6 ms to 9 ms (frames 2, 3 and 4), then
    // catches up.
    let levels = [0, 10, 13, 16, 19, 22, 25, 0]
    let trace = Self.writes([(5_000, 10), (6_000, 13), (9_000, 22), (10_000, 25), (11_000, 0)])
    let comparison = try #require(RTPComparison.compare(writes: trace, levels: levels))
    #expect(comparison.failureCount >= 1)
    #expect(comparison.failuresMatchingNeighbourFrames == comparison.failureCount)
  }

  @Test func aWrongValueIsNotMistakenForALateOne() throws {
    let levels = [0, 10, 13, 16, 19, 22, 0]
    let trace = Self.writes([(5_000, 10), (6_000, 13), (7_000, 40), (8_000, 19), (9_000, 22), (10_000, 0)])
    let comparison = try #require(RTPComparison.compare(writes: trace, levels: levels))
    #expect(comparison.failureCount == 1)
    #expect(comparison.failuresMatchingNeighbourFrames == 0)
  }
}
