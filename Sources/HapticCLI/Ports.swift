import ArgumentParser
import Foundation
import HapticTransport

/// `hapticctl ports [--json]`: the serial ports on this machine.
struct Ports: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List serial ports with their USB VID:PID and description.",
    discussion: """
      Pseudo-terminals (the simulator's, simavr's) are not listed; pass their path to --port \
      directly. With --json: an array of objects with name, description, transport, vid_pid, \
      vendor_id, product_id, serial_number, manufacturer, product.
      """)

  @Flag(help: "Print a JSON array instead of a table.")
  var json = false

  func run() throws {
    let ports = PortList.ports()
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
      print("\(name)  \(id)  \(details)")
    }
  }
}
