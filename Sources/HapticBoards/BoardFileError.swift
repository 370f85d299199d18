import HapticCore

/// Why a board file is unusable: every problem with the field path it concerns
/// (`channels[0].f0Hz`) and, for files, the file.
public struct BoardFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One problem.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The field, e.g. `channels[0].q`; empty for the whole file.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(_ path: String, _ message: String) {
      self.path = path
      self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
  }

  /// The file, when the board came from one.
  public var file: String?
  /// The problems, in file order as far as known.
  public var problems: [Problem]

  /// Creates an error.
  public init(file: String?, problems: [Problem]) {
    self.file = file
    self.problems = problems
  }

  public var description: String { ProblemList.text(file: file, problems: problems) }
}
