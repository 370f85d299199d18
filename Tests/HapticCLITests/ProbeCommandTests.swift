import Foundation
import HapticTestSupport
import HapticTransport
import HapticWire
import Testing

@Suite("hapticctl probe and ports", .serialized)
struct ProbeCommandTests {
  @Test("probe a board on a pseudo-terminal: capabilities, round trip, clock")
  func probeText() throws {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities(), driftPPM: 100)
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let result = try CLIRunner.run(["probe", "--port", pty.path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("\(pty.path): sim-lra, firmware scripted-board 0.1.0, protocol 1"))
    #expect(result.stdout.contains("channel 0: LRA f0 170.0 Hz (board file), Q 11.0, drive 80–300 Hz, 8-bit"), "\(result.stdout)")
    // A v1.0 board (no identity feature): nothing tells it from another of its type.
    #expect(result.stdout.contains("this board: none (no USB serial number, and the board does not keep a serial)"), "\(result.stdout)")
    #expect(result.stdout.contains("round trip"))
    #expect(result.stdout.contains("haptics: supported"))
  }

  @Test("probe --json has the documented keys")
  func probeJSON() throws {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities())
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let result = try CLIRunner.run(["probe", "--port", pty.path, "--json"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["supports_haptics"] as? Bool == true)
    #expect(object["reason"] is NSNull)
    #expect(object["board"] as? String == "sim-lra")
    #expect(object["protocol_version"] as? Int == 1)
    #expect(object["firmware"] as? String == "scripted-board 0.1.0")
    #expect((object["channels"] as? [[String: Any]])?.first?["kind"] as? String == "LRA")
    #expect((object["channels"] as? [[String: Any]])?.first?["f0_source"] as? String == "board file")
    #expect(object["identity"] is NSNull && object["usb_serial"] is NSNull && object["board_serial"] is NSNull, "\(object)")
    #expect(object["round_trip_ms"] is Double || object["round_trip_ms"] is Int)
  }

  @Test("A board without an actuator: supportsHaptics false with the reason, exit 1")
  func noActuator() throws {
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities(actuator: .none))
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let result = try CLIRunner.run(["probe", "--port", pty.path, "--json"])
    #expect(result.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["supports_haptics"] as? Bool == false)
    #expect((object["reason"] as? String)?.hasPrefix("no actuator reported") == true)
  }

  @Test("A second process opening a busy port gets 'port busy', quickly")
  func portBusy() throws {
    let pty = try PseudoTerminal()
    defer { pty.boardSide.close() }
    let holder = try Transports.open(path: pty.path)
    defer { holder.close() }
    let started = Date()
    let result = try CLIRunner.run(["probe", "--port", pty.path, "--timeout", "2"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("port \(pty.path): port busy"))
    #expect(Date().timeIntervalSince(started) < 2)
  }

  @Test("A missing port and a silent board fail with clear messages within the timeout")
  func missingAndSilent() throws {
    let missing = try CLIRunner.run(["probe", "--port", "/dev/hapticctl-missing"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("port /dev/hapticctl-missing: no such port"))
    let pty = try PseudoTerminal()
    let board = ScriptedBoard(transport: pty.boardSide, capabilities: ScriptedBoard.lraCapabilities(), behaviour: .silent)
    defer {
      board.stop()
      pty.boardSide.close()
    }
    let started = Date()
    let silent = try CLIRunner.run(["probe", "--port", pty.path, "--timeout", "0.5"])
    #expect(silent.status == 1)
    #expect(silent.stdout.contains("no answer within 0.5 s"))
    #expect(Date().timeIntervalSince(started) < 2.5)
    let badBaud = try CLIRunner.run(["probe", "--port", pty.path, "--baud", "1200"])
    #expect(badBaud.status == 1)
    #expect(badBaud.stderr.contains("1200 baud is never used"))
  }

  @Test("ports --json prints a JSON array")
  func portsJSON() throws {
    let result = try CLIRunner.run(["ports", "--json"])
    #expect(result.status == 0)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(array.allSatisfy { $0["name"] is String && $0.keys.contains("vid_pid") })
  }
}
