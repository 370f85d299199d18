public import HapticEngine
public import HapticRenderer
import HapticSimulator

/// The engine on the in-process simulated board: `hapticctl send --sim`, the compatibility
/// layer without a board, and the tests. Apart from the engine (as NIO keeps its embedded
/// channel apart from its core), so the engine knows boards only through ``BoardLink``.
extension HapticEngine {
  /// An engine on the in-process simulator in real time (`hapticctl send --sim`). With
  /// `logsDrive` the simulated board keeps every change of its drive (``SimulatorBoardLink/snapshot``'s
  /// drive log: onsets can be measured against the pattern; it grows with what is played).
  public static func simulated(
    profile: BoardProfile = .simLRA, configuration: Configuration = Configuration(), logsDrive: Bool = false
  ) throws(HapticEngineError) -> HapticEngine {
    let link = try SimulatorBoardLink(configuration: .init(profile: profile), clock: .realTime, logsDrive: logsDrive)
    return try HapticEngine(link: link, configuration: configuration)
  }
}
