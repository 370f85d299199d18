/// How an error that lists the problems found in a file reads (a board file's, a rig file's): the
/// file, then the one problem, or how many and each on its own indented line.
public enum ProblemList {
  /// `FILE: problem`, or `FILE: N problems:` and the problems, one per line.
  public static func text(file: String?, problems: [some CustomStringConvertible]) -> String {
    let head = file.map { "\($0): " } ?? ""
    if problems.count == 1 { return head + problems[0].description }
    return head + "\(problems.count) problems:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
  }
}
