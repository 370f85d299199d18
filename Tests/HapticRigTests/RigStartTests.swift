import HapticCore
import HapticEngine
import HapticEngineSimulator
import HapticLocks
import Testing

@testable import HapticRig

/// `RigPlayer.start(_:atTime:)` starts several players on one instant of one rig; players of two
/// rigs have no timeline in common and are refused by name, nothing started.
@Suite struct RigStartTests {
  static func rig(_ name: String) throws -> Rig {
    let file = RigFile(
      name: name, boards: [.init(name: "\(name)-board", port: "sim")],
      actuators: [.init(name: "\(name)-0", board: "\(name)-board", channel: 0)])
    return try Rig.open(file) { _ throws(HapticEngineError) in
      let engine = try HapticEngine.simulated()
      try engine.start()
      return engine
    }
  }

  static let pattern = HapticPattern(events: [HapticEvent(.hapticTransient, time: 0, parameters: [EventParameter(.hapticIntensity, 1)])])

  @Test("Players of two rigs are refused, and neither starts; two of one rig start on one instant")
  func differentRigs() throws {
    let first = try Self.rig("one")
    let second = try Self.rig("two")
    defer {
      first.close()
      second.close()
    }
    let a = try first.makePlayer(with: Self.pattern, actuators: ["one-0"])
    let b = try second.makePlayer(with: Self.pattern, actuators: ["two-0"])
    #expect(throws: RigError.self) { try RigPlayer.start([(a, 0), (b, 0)]) }
    #expect(a.state.withLock { $0.startedAt } == nil && b.state.withLock { $0.startedAt } == nil)
    let c = try first.makePlayer(with: Self.pattern, actuators: ["one-0"])
    let instant = try RigPlayer.start([(a, 0), (c, 0.01)])
    #expect(a.state.withLock { $0.startedAt } == instant)
    #expect(c.state.withLock { $0.startedAt } == instant + 0.01)
  }
}
