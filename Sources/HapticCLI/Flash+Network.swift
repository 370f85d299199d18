import Foundation
import HapticTransport

/// Where `flash` puts the flashing tool's port: a local one is checked free and given to the
/// tool as it is; a board on another machine (`rfc2217://`, through ser2net) is reset by DTR
/// over the network and handed to the tool as a local pseudo-terminal bridged to it.
extension Flash {
  /// The flashing tool does not lock the port: a port another program holds (hapticctl's lock)
  /// is refused here, before the tool could write into someone else's session.
  func requireFree(baud: Int) throws {
    do {
      try Transports.open(path: port, baud: baud).close()
    } catch {
      if error.code == .portBusy {
        throw CLIError("\(port) is busy: another program has it open (a running hapticctl send or sim, a serial monitor); nothing was written")
      }
      throw CLIError("cannot open \(port): \(error.description); nothing was written")
    }
  }

  /// Runs `command` (the tool's command line for a port path) against the board at `address`:
  /// connects (ser2net opens the far port, which resets an Uno as a local open does), resets
  /// the board by DTR over RFC 2217 (avrdude's own DTR changes fail on a pseudo-terminal) and
  /// gives the tool a local pseudo-terminal whose bytes, and the rate the tool sets, go to the
  /// far port. The connection is the tool's alone while it runs.
  func flashThroughNetwork(
    _ address: NetworkAddress, command: (String) -> [String], tool: String, baud: Int
  ) throws -> (status: Int32, output: String) {
    let remote: NetworkTransport
    do {
      remote = try NetworkTransport.open(address, baud: baud)
    } catch {
      throw CLIError("cannot connect to \(port): \(error.description); nothing was written")
    }
    defer { remote.close() }
    let bridge: PortBridge
    do {
      _ = try remote.pulseReset()
      bridge = try PortBridge(to: remote, baud: baud)
    } catch {
      throw CLIError("cannot reach the board at \(port): \(error.description); nothing was written")
    }
    defer { bridge.stop() }
    printError("\(port): board reset by DTR over RFC 2217; \(tool) runs on \(bridge.path), bridged to it")
    let flashed = try Shell.capture(command(bridge.path), what: tool)
    if let failure = bridge.stop() {
      let written = flashed.output.contains("bytes of flash written") || flashed.output.contains("Writing")
      throw CLIError(
        "the connection to \(port) failed while \(tool) ran: \(failure.description); "
          + (written ? "the board may hold a partial image: flash again" : "nothing was written"))
    }
    return flashed
  }
}
