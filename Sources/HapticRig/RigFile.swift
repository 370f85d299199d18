import HapticCore

/// A rig file (schema 1): boards, each on a port (local, or on another machine through
/// ser2net), and the actuators on them by name, with optional groups and positions.
/// docs/rigs.md documents every field.
///
/// ```json
/// { "schema": 1, "name": "vest",
///   "boards": [ { "name": "left", "port": "/dev/ttyACM0", "board": "uno-drv2605l" },
///               { "name": "seat", "port": "rfc2217://pi.local:3000" } ],
///   "actuators": [ { "name": "front-1", "board": "left", "channel": 0, "group": "chest" },
///                  { "name": "seat-l", "board": "seat", "channel": 0, "group": ["seat", "left"],
///                    "position": [-0.2, 0, 0.4] } ] }
/// ```
public struct RigFile: Sendable, Hashable {
  /// One board of the rig.
  public struct Board: Sendable, Hashable {
    /// The rig's name for it (actuators say which board they are on by it).
    public var name: String
    /// Its port: a serial port, a pseudo-terminal, `tcp://HOST:PORT` or `rfc2217://HOST:PORT`.
    public var port: String
    /// The board id (`uno-drv2605l`): the rate to open it at and the board it must be; nil
    /// lets the probe find it.
    public var board: String?
    /// The line rate, when it is not the board's own.
    public var baud: Int?

    /// A board entry.
    public init(name: String, port: String, board: String? = nil, baud: Int? = nil) {
      self.name = name
      self.port = port
      self.board = board
      self.baud = baud
    }
  }

  /// One actuator: a name for a board's channel.
  public struct Actuator: Sendable, Hashable {
    /// Its name (`front-3`).
    public var name: String
    /// The ``Board/name`` of the board it is on.
    public var board: String
    /// The board's channel that drives it.
    public var channel: Int
    /// The groups it belongs to (`chest`), in the file's order.
    public var groups: [String]
    /// Where it is, in the rig's own units (2 or 3 coordinates), when given.
    public var position: [Double]?

    /// An actuator entry.
    public init(name: String, board: String, channel: Int, groups: [String] = [], position: [Double]? = nil) {
      self.name = name
      self.board = board
      self.channel = channel
      self.groups = groups
      self.position = position
    }
  }

  /// The schema version (1).
  public var schema: Int
  /// The rig's name, for reports.
  public var name: String?
  /// The boards, in the file's order.
  public var boards: [Board]
  /// The actuators, in the file's order.
  public var actuators: [Actuator]
  /// The file the rig was read from, when it was.
  public var path: String?

  /// A rig.
  public init(schema: Int = 1, name: String? = nil, boards: [Board], actuators: [Actuator], path: String? = nil) {
    self.schema = schema
    self.name = name
    self.boards = boards
    self.actuators = actuators
    self.path = path
  }

  /// The groups, each once, in the order they first appear.
  public var groups: [String] {
    var seen = Set<String>()
    return actuators.flatMap(\.groups).filter { seen.insert($0).inserted }
  }

  /// The actuators `names` address: each name is an actuator or a group (all its actuators),
  /// in the file's order, each once.
  ///
  /// - Throws: ``RigFileError`` naming the first name that is neither.
  public func actuators(named names: [String]) throws(RigFileError) -> [Actuator] {
    var chosen = Set<String>()
    for name in names {
      let matches = actuators.filter { $0.name == name || $0.groups.contains(name) }
      guard !matches.isEmpty else {
        let known = "actuators: \(actuators.map(\.name).joined(separator: ", "))"
          + (groups.isEmpty ? "" : "; groups: \(groups.joined(separator: ", "))")
        throw RigFileError(file: path, problems: [.init("", "no actuator or group named '\(name)' (\(known))")])
      }
      chosen.formUnion(matches.map(\.name))
    }
    return actuators.filter { chosen.contains($0.name) }
  }
}

/// Why a rig file is unusable: every problem with the entry it concerns (`actuators[2].board`)
/// and, when known, where in the file (line:column).
public struct RigFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One problem.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The entry, e.g. `actuators[2].board`; empty for the whole file.
    public var path: String
    /// What is wrong.
    public var message: String
    /// The 1-based line and column of the value, when known.
    public var line: Int?
    public var column: Int?

    /// A problem.
    public init(_ path: String, _ message: String, line: Int? = nil, column: Int? = nil) {
      self.path = path
      self.message = message
      self.line = line
      self.column = column
    }

    public var description: String {
      let place = line.map { "line \($0)" + (column.map { ", column \($0)" } ?? "") + ": " } ?? ""
      return place + (path.isEmpty ? message : "\(path): \(message)")
    }
  }

  /// The file, when the rig came from one.
  public var file: String?
  /// The problems, in file order.
  public var problems: [Problem]

  /// An error.
  public init(file: String?, problems: [Problem]) {
    self.file = file
    self.problems = problems
  }

  public var description: String { ProblemList.text(file: file, problems: problems) }
}
