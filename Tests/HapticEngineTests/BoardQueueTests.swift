import HapticCore
import HapticEngineSimulator
import HapticRenderer
import HapticSimulator
import HapticWire
import Testing

@testable import HapticEngine

/// The engine never sends more segments than the board's queue holds (its capabilities'
/// `queueDepth`; the Uno's holds 32): a batch beyond it is refused whole (`queueFull`) and its
/// drive is lost. A 400 ms lookahead of a curve-shaped pattern needs over 70 segments.
@Suite struct BoardQueueTests {
  /// 0.6 s continuous under an intensity curve of 12 points: a segment every few frames.
  static let pattern = HapticPattern(
    events: [EngineHarness.continuous(0.6, intensity: 0.8)],
    curves: [
      ParameterCurve(
        .hapticIntensityControl, time: 0,
        controlPoints: (0...12).map { .init(time: Double($0) * 0.05, value: $0 % 2 == 0 ? 0.3 : 1) })
    ])

  func play(queueDepth: Int) throws -> (board: SimulatedBoard, engine: HapticEngine.Report) {
    var board = SimulatorConfiguration(profile: .unoDRV2605L)
    board.queueDepth = queueDepth
    let link = try SimulatorBoardLink(configuration: board, clock: .virtual, logsDrive: true)
    var configuration = HapticEngine.Configuration()
    configuration.lookahead = 0.4
    configuration.maximumLookahead = 0.4
    let engine = try HapticEngine(link: link, configuration: configuration)
    try engine.start()
    engine.advance(to: link.hostNow + 0.05)
    let player = try engine.makePlayer(with: Self.pattern)
    try player.start(atTime: 0)
    engine.advance(to: link.hostNow + 0.8)
    return (link.snapshot, engine.report)
  }

  @Test("A 32-segment queue, a 400 ms lookahead: no queueFull, the drive whole, as with a deep queue")
  func shallowQueue() throws {
    let (shallow, report) = try play(queueDepth: 32)
    let (deep, _) = try play(queueDepth: 512)
    #expect(report.segments > 40, "the pattern needs more segments than the queue holds: \(report.segments)")
    #expect(shallow.counters.errors == 0, "the board refused batches (queueFull)")
    #expect(shallow.status.totalUnderruns == 0 && shallow.status.totalLateSegments == 0)
    // The same drive, frame by frame, as on a board whose queue never fills.
    let frequency = Double(shallow.configuration.clockFrequency)
    func levels(_ board: SimulatedBoard) -> [Int: Int] {
      var result: [Int: Int] = [:]
      var last = 0
      var lastFrame = 0
      for change in board.driveLog {
        let frame = Int((Double(board.boardTicks(at: change.time)) / frequency * 1000).rounded())
        if frame > lastFrame { for f in lastFrame..<frame { result[f] = last } }
        last = change.level
        lastFrame = frame
      }
      result[lastFrame] = last
      return result
    }
    let a = levels(shallow)
    let b = levels(deep)
    let driven = b.filter { $0.value != 0 }.count
    #expect(driven > 550, "the deep board drove the pattern: \(driven) frames")
    // Within a level: a batch cut short closes a ramp segment elsewhere (rounding).
    let differing = b.keys.filter { abs((a[$0] ?? 0) - (b[$0] ?? 0)) > 1 }.sorted()
    #expect(a.count >= b.count && differing.isEmpty, "\(differing.count) frames differ, from \(differing.first ?? -1)")
  }
}
