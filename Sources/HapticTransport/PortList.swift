internal import CLibSerialPort

/// A serial port found on the system.
public struct SerialPortInfo: Sendable, Hashable {
  /// The device path, e.g. `/dev/ttyACM0`.
  public var name: String
  /// libserialport's description (often the USB product string).
  public var description: String
  /// `usb`, `native` or `bluetooth`.
  public var transport: String
  /// USB vendor id, for USB ports.
  public var vendorID: UInt16?
  /// USB product id, for USB ports.
  public var productID: UInt16?
  /// USB serial number, manufacturer and product strings, when the device reports them.
  public var serialNumber: String?
  public var manufacturer: String?
  public var product: String?

  /// `2341:0043`-style VID:PID, for USB ports.
  public var vidPid: String? {
    guard let vendorID, let productID else { return nil }
    return hex4(vendorID) + ":" + hex4(productID)
  }

  private func hex4(_ value: UInt16) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 4 - text.count) + text
  }
}

/// Lists the serial ports libserialport can see (pseudo-terminals are not among them).
public enum PortList {
  /// The ports, sorted by name.
  public static func ports() -> [SerialPortInfo] {
    var list: UnsafeMutablePointer<OpaquePointer?>?
    guard sp_list_ports(&list) == SP_OK, let ports = list else { return [] }
    defer { sp_free_port_list(ports) }
    var result: [SerialPortInfo] = []
    var index = 0
    while let port = ports[index] {
      index += 1
      let name = string(sp_get_port_name(port)) ?? "?"
      var info = SerialPortInfo(
        name: name, description: string(sp_get_port_description(port)) ?? "", transport: "native")
      switch sp_get_port_transport(port) {
      case SP_TRANSPORT_USB:
        info.transport = "usb"
        var vid: Int32 = 0
        var pid: Int32 = 0
        if sp_get_port_usb_vid_pid(port, &vid, &pid) == SP_OK {
          info.vendorID = UInt16(truncatingIfNeeded: vid)
          info.productID = UInt16(truncatingIfNeeded: pid)
        }
        info.serialNumber = string(sp_get_port_usb_serial(port))
        info.manufacturer = string(sp_get_port_usb_manufacturer(port))
        info.product = string(sp_get_port_usb_product(port))
      case SP_TRANSPORT_BLUETOOTH:
        info.transport = "bluetooth"
      default:
        break
      }
      result.append(info)
    }
    return result.sorted { $0.name < $1.name }
  }

  private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
