import HapticTransport

extension HapticEngine {
  /// How much before its due time a pass on a shared ``Configuration/reactor`` may come when
  /// the reactor is awake for another source: a rig's boards, started on one instant on one
  /// frame grid, are due within a frame or two of each other, and each pass refilling a few
  /// frames early keeps them in one wake-up (their next ones then fall due together again).
  static let passEarliness = 0.004

  /// The scheduler's passes as a ``Reactor`` source (the engine's loop on a shared thread).
  /// Holds the engine weakly, as the loop thread does.
  final class PassSource: ReactorSource {
    weak let engine: HapticEngine?
    /// The loop generation it serves: a newer start, or a stop, makes it leave.
    let generation: Int

    init(engine: HapticEngine, generation: Int) {
      self.engine = engine
      self.generation = generation
    }

    var reactorDescriptor: Int32? { nil }

    func reactorWindow() -> ReactorWindow? {
      // A released engine: called at once, to leave.
      guard let engine else { return ReactorWindow(earliest: 0, latest: 0) }
      let latest = MonotonicTime.seconds() + engine.sleepUntilNextPass()
      return ReactorWindow(earliest: latest - HapticEngine.passEarliness, latest: latest)
    }

    func reactorFire(readable: Bool) -> Bool {
      guard let engine else { return false }
      let early = Int((HapticEngine.passEarliness / engine.framePeriod).rounded(.up))
      return engine.pass(generation: generation, early: early)
    }
  }
}
