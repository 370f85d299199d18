/// A rig timeline (schema 1): which pattern plays on which actuators when, with per-actuator
/// intensity and delay, so a wave across a group is one file. docs/rigs.md documents it.
///
/// ```json
/// { "schema": 1,
///   "patterns": { "tap": "tap.ahap", "ok": "preset:success" },
///   "cues": [
///     { "at": 0, "pattern": "tap", "actuators": "chest", "spread": 0.05, "along": "x" },
///     { "at": 0.5, "pattern": "ok", "intensity": 0.8,
///       "actuators": [ "front", { "name": "seat-l", "delay": 0.02, "intensity": 0.5 } ] } ] }
/// ```
public struct RigTimeline: Sendable, Hashable {
  /// Where a pattern comes from.
  public enum PatternSource: Sendable, Hashable {
    /// A pattern file (AHAP or `.haptic`), its path resolved against the timeline's folder.
    case file(String)
    /// A built-in preset (`preset:NAME` in the file).
    case preset(String)
  }

  /// One pattern on one actuator at one time: what a cue comes to, per actuator.
  public struct Play: Sendable, Hashable {
    /// The pattern's name (a key of ``patterns``).
    public var pattern: String
    /// The actuator.
    public var actuator: String
    /// Seconds from the timeline's start: the cue's `at`, its spread and the actuator's delay.
    public var at: Double
    /// 0…1: the cue's intensity times the actuator's (it scales the pattern's intensity control).
    public var intensity: Double
    /// The cue it comes from (an index into the file's `cues`).
    public var cue: Int

    /// A play.
    public init(pattern: String, actuator: String, at: Double, intensity: Double, cue: Int) {
      self.pattern = pattern
      self.actuator = actuator
      self.at = at
      self.intensity = intensity
      self.cue = cue
    }
  }

  /// The patterns by name, in the file's order.
  public var patterns: [(name: String, source: PatternSource)]
  /// Every play, in time order (ties in the file's order).
  public var plays: [Play]
  /// The file the timeline was read from, when it was.
  public var path: String?

  /// A timeline.
  public init(patterns: [(name: String, source: PatternSource)], plays: [Play], path: String? = nil) {
    self.patterns = patterns
    self.plays = plays
    self.path = path
  }

  public static func == (lhs: RigTimeline, rhs: RigTimeline) -> Bool {
    lhs.path == rhs.path && lhs.plays == rhs.plays && lhs.patterns.elementsEqual(rhs.patterns) { $0.name == $1.name && $0.source == $1.source }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(plays)
    for pattern in patterns {
      hasher.combine(pattern.name)
      hasher.combine(pattern.source)
    }
  }

  /// The most cues a timeline may have, and the most plays they may come to.
  public static let maximumCues = 10_000
  public static let maximumPlays = 10_000
  /// The latest a cue may start, seconds (a day).
  public static let maximumTime = 86_400.0
}
