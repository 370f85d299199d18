/// Why a rig operation failed: a code and a message naming the board or actuator.
public struct RigError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The rig file is unusable (``RigFileError``).
    case file
    /// A board could not be opened, probed or started, or is not the board the file says.
    case board
    /// An actuator's channel is not on its board, or a name addresses nothing.
    case actuator
    /// A player operation failed on a board.
    case player
    /// A board was lost while playing.
    case boardLost
  }

  /// The code.
  public var code: Code
  /// The board concerned (the rig's name for it), when one is.
  public var board: String?
  /// What happened, in words (naming the board's port where it helps).
  public var message: String

  /// An error.
  public init(_ code: Code, board: String? = nil, _ message: String) {
    self.code = code
    self.board = board
    self.message = message
  }

  public var description: String { (board.map { "board \($0): " } ?? "") + message }
}
