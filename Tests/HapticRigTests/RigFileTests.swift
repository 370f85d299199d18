import Foundation
import HapticRig
import Testing

/// Rig files (issue 30): what a valid one holds, and every problem of a bad one named with its
/// entry and its line.
@Suite("Rig files")
struct RigFileTests {
  static func parse(_ text: String) throws(RigFileError) -> RigFile {
    try RigFile.parse(Data(text.utf8), path: "rig.json", knownBoard: { ["sim-lra", "sim-dual", "uno-drv2605l"].contains($0) })
  }

  static let vest = """
    {
      "schema": 1, "name": "vest",
      "boards": [
        { "name": "left", "port": "/dev/ttyACM0", "board": "uno-drv2605l", "baud": 500000 },
        { "name": "seat", "port": "rfc2217://pi.local:3000" },
      ],
      "actuators": [
        { "name": "front-1", "board": "left", "channel": 0, "group": "chest" },
        { "name": "seat-l", "board": "seat", "channel": 0, "group": ["seat", "chest"], "position": [-0.2, 0, 0.4] },
        { "name": "seat-r", "board": "seat", "channel": 1, "group": "seat", "position": [0.2, 0] }
      ]
    }
    """

  @Test("A valid rig: boards, actuators with their groups and positions, names that address actuators or groups")
  func valid() throws {
    let rig = try Self.parse(Self.vest)
    #expect(rig.name == "vest" && rig.path == "rig.json")
    #expect(rig.boards == [
      .init(name: "left", port: "/dev/ttyACM0", board: "uno-drv2605l", baud: 500_000), .init(name: "seat", port: "rfc2217://pi.local:3000"),
    ])
    #expect(rig.actuators[1] == .init(name: "seat-l", board: "seat", channel: 0, groups: ["seat", "chest"], position: [-0.2, 0, 0.4]))
    #expect(rig.groups == ["chest", "seat"])
    #expect(try rig.actuators(named: ["chest"]).map(\.name) == ["front-1", "seat-l"])
    #expect(try rig.actuators(named: ["seat-r", "chest"]).map(\.name) == ["front-1", "seat-l", "seat-r"])
    #expect(throws: RigFileError.self) { try rig.actuators(named: ["back"]) }
    do {
      _ = try rig.actuators(named: ["back"])
    } catch {
      #expect(error.description.contains("no actuator or group named 'back' (actuators: front-1, seat-l, seat-r; groups: chest, seat)"))
    }
  }

  /// The problems of `text`, as printed.
  static func problems(_ text: String) -> [String] {
    do {
      _ = try parse(text)
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  @Test("Every problem is named with its entry and line: unknown fields, missing ones, wrong types, bad references, clashes")
  func problems() {
    let text = """
      {
        "schema": 1,
        "boards": [
          { "name": "left", "port": "/dev/ttyACM0", "board": "no-such-board" },
          { "name": "left", "port": "/dev/ttyACM0", "baud": 1200 },
          { "name": "right", "port": "tcp://pi:3000", "colour": "red" }
        ],
        "actuators": [
          { "name": "a", "board": "left", "channel": 0, "group": "a" },
          { "name": "a", "board": "lefty", "channel": 9 },
          { "name": "c", "board": "left", "channel": 0, "position": [1] }
        ]
      }
      """
    let found = Self.problems(text)
    // Shape problems stop before the rules: the unknown field and the bad position come first.
    #expect(found == [
      "line 6, column 49: boards[2].colour: unknown field (known: name, port, board, baud)",
      "line 11, column 63: actuators[2].position: expected 2 or 3 numbers, e.g. [0.1, 0.25] or [0.1, 0.25, 0]",
    ])
    let rules = Self.problems(text.replacingOccurrences(of: #", "colour": "red""#, with: "").replacingOccurrences(of: #", "position": [1]"#, with: ""))
    #expect(rules == [
      "line 4, column 56: boards[0].board: no board 'no-such-board' (hapticctl boards list shows them)",
      "line 5, column 15: boards[1].name: 'left' names boards[0] already",
      "line 5, column 31: boards[1].port: /dev/ttyACM0 is boards[0]'s port already (one board per port)",
      "line 5, column 55: boards[1].baud: 1200 is not a supported rate (1200 resets boards)",
      "line 10, column 15: actuators[1].name: 'a' names actuators[0] already",
      "line 10, column 29: actuators[1].board: no board named 'lefty' (boards: left, left, right)",
      "line 10, column 49: actuators[1].channel: must be a channel 0–7",
      "line 11, column 48: actuators[2].channel: channel 0 of left is actuators[0] already",
      "line 9, column 60: actuators[0].group: 'a' is an actuator's name: a group needs a name of its own",
    ])
  }

  @Test("Syntax errors, missing lists, wrong types and other schemas are refused with where they are")
  func shapes() {
    #expect(Self.problems("{ \"schema\": 1,\n  \"boards\": [ }") == ["line 2, column 15: not valid JSON: expected a JSON value, found '}'"])
    #expect(Self.problems("[]") == ["line 1, column 1: expected an object, found an array"])
    #expect(Self.problems(#"{ "schema": 1, "boards": [] }"#) == ["line 1, column 1: actuators: missing"])
    #expect(Self.problems(#"{ "schema": 2, "boards": {}, "actuators": [ { "name": 3 } ] }"#) == [
      "line 1, column 26: boards: expected a list, found an object",
      "line 1, column 55: actuators[0].name: expected a string, found a number",
      "line 1, column 45: actuators[0].board: missing",
      "line 1, column 45: actuators[0].channel: missing",
    ])
    #expect(
      Self.problems(#"{ "schema": 2, "boards": [ { "name": "x y", "port": "" } ], "actuators": [] }"#) == [
        "line 1, column 13: schema: version 2 is not supported (this hapticctl reads schema 1)",
        "line 1, column 74: actuators: 1–1024 actuators",
        "line 1, column 38: boards[0].name: 1–32 letters, digits, '-' or '_' (e.g. \"left-sleeve\")",
        "line 1, column 53: boards[0].port: must not be empty (a serial port, tcp://HOST:PORT or rfc2217://HOST:PORT)",
      ])
    #expect(throws: RigFileError.self) { try RigFile.load("/no/such/rig.json", knownBoard: { _ in true }) }
  }
}
