import ArgumentParser
import Foundation
import HapticBoards
import HapticTransport

/// `hapticctl ports [--json]`: the serial ports on this machine.
struct Ports: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ports",
    abstract: "List serial ports with their USB VID:PID and description.",
    discussion: """
      Pseudo-terminals (the simulator's, simavr's) are not listed; pass their path to --port \
      directly. Ports whose VID:PID matches a known board file are marked with the board ids. \
      With --json: an array of objects with name, description, transport, vid_pid, vendor_id, \
      product_id, serial_number, manufacturer, product, boards.
      """)

  @Flag(help: "Print a JSON array instead of a table.")
  var json = false

  @OptionGroup var boardOptions: BoardOptions

  func run() throws {
    let ports = PortList.ports()
    let catalog = boardOptions.catalog()
    func boards(_ port: SerialPortInfo) -> [String] {
      guard let vid = port.vendorID, let pid = port.productID else { return [] }
      return catalog.boards(vid: hex4(vid), pid: hex4(pid)).map(\.id)
    }
    if json {
      func text(_ value: String?) -> JSONText { value.map { .string($0) } ?? .null }
      func number(_ value: UInt16?) -> JSONText { value.map { .int(Int($0)) } ?? .null }
      let items: [JSONText] = ports.map { port in
        .object([
          ("name", .string(port.name)),
          ("description", .string(port.description)),
          ("transport", .string(port.transport)),
          ("vid_pid", text(port.vidPid)),
          ("vendor_id", number(port.vendorID)),
          ("product_id", number(port.productID)),
          ("serial_number", text(port.serialNumber)),
          ("manufacturer", text(port.manufacturer)),
          ("product", text(port.product)),
          ("boards", .array(boards(port).map { .string($0) })),
        ])
      }
      print(JSONText.array(items).rendered)
      return
    }
    guard !ports.isEmpty else {
      print("No serial ports found. (Pseudo-terminals are not listed: pass their path to --port.)")
      return
    }
    let width = ports.map(\.name.count).max() ?? 4
    for port in ports {
      let name = port.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let id = (port.vidPid ?? "-").padding(toLength: 9, withPad: " ", startingAt: 0)
      var details = port.description
      if let serial = port.serialNumber { details += " (serial \(serial))" }
      let known = boards(port)
      if !known.isEmpty { details += "  [board: \(known.joined(separator: ", "))]" }
      print("\(name)  \(id)  \(details)")
    }
  }
}

/// A USB id as 4 upper-case hexadecimal digits.
/// Opens the serial port `path` for a command: a failure is a CLI error naming the port.
func openPort(_ path: String, baud: Int) throws -> any ByteTransport {
  do {
    return try Transports.open(path: path, baud: baud)
  } catch {
    throw CLIError(error.description)
  }
}

func hex4(_ value: UInt16) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: 4 - digits.count) + digits
}
