/// One frame of drive for one channel: held from `index × framePeriod` for one frame period.
public struct Frame: Sendable, Hashable {
  /// The frame number from the pattern start (frame 0 starts at 0 s).
  public var index: Int
  /// The quantised drive level: `maxLevel` is full-scale drive, negative values are reverse
  /// drive (braking).
  public var level: Int
  /// The drive frequency in Hz, or 0 on boards without frequency control.
  public var frequency: Int

  /// Creates a frame.
  public init(index: Int, level: Int, frequency: Int) {
    self.index = index
    self.level = level
    self.frequency = frequency
  }
}

/// Settings for rendering.
public struct RenderOptions: Sendable, Hashable {
  /// How intensity becomes acceleration (default: sensation level, Android 16's rule).
  public var intensityMapping: IntensityMapping
  /// Patterns longer than this many seconds are refused (default 24 h).
  public var maxDuration: Double
  /// Whether smooth stretches of a pattern are evaluated exactly every few frames and
  /// interpolated in between, within 2 × 10⁻⁴ of the exact power (default `true`; `false`
  /// evaluates every frame, for comparisons). docs/semantics.md §14.
  public var controlRate: Bool

  /// Creates options; every argument has the documented default.
  public init(
    intensityMapping: IntensityMapping = .sensationLevel, maxDuration: Double = 86_400, controlRate: Bool = true
  ) {
    self.intensityMapping = intensityMapping
    self.maxDuration = maxDuration
    self.controlRate = controlRate
  }
}

/// Why a pattern cannot be rendered for a board.
public struct RenderError: Error, Sendable, CustomStringConvertible {
  /// The board profile's id.
  public var board: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(board: String, message: String) {
    self.board = board
    self.message = message
  }

  /// `cannot render for board 'sim-lra': ...`.
  public var description: String { "cannot render for board '\(board)': \(message)" }
}
