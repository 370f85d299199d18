import Glibc
/// What tells one physical board from another of the same type (docs/protocol.md §6.11): the
/// USB serial number of its port where the USB chip has one, else the serial the board keeps
/// (protocol v1.1's *identity*). Calibrations kept on the host are filed under ``key``.
public struct BoardIdentity: Sendable, Hashable {
  /// The port's USB serial number, if the port is a USB device that reports one.
  public var usbSerial: String?
  /// The serial the board keeps: nil when not known (a v1.0 board, or not asked), 0 when the
  /// board has none yet.
  public var boardSerial: UInt32?

  /// Creates an identity.
  public init(usbSerial: String? = nil, boardSerial: UInt32? = nil) {
    self.usbSerial = usbSerial?.isEmpty == true ? nil : usbSerial
    self.boardSerial = boardSerial
  }

  /// A name for the board that is the same on every host and safe as a file name
  /// (`usb-85734323231351F0A1C1`, `serial-1A2B3C4D`), or nil when the board has no identity.
  public var key: String? {
    if let usbSerial {
      return "usb-" + String(usbSerial.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
    guard let boardSerial, boardSerial != 0 else { return nil }
    return "serial-" + Self.hex(boardSerial)
  }

  /// How a person reads it: `USB serial 8573…`, `board serial 1A2B3C4D`, or why there is none.
  public var description: String {
    if let usbSerial { return "USB serial \(usbSerial)" }
    switch boardSerial {
    case .some(0): return "none yet (the board keeps no serial: `hapticctl calibrate` assigns one)"
    case .some(let serial): return "board serial \(Self.hex(serial))"
    case .none: return "none (no USB serial number, and the board does not keep a serial)"
    }
  }

  /// Eight upper-case hex digits.
  public static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }
}

extension PortList {
  /// The USB serial number of the port at `path` (a `/dev/serial/by-id` link is followed), nil
  /// for a port that is not a USB device with one (a pseudo-terminal, a native UART).
  public static func usbSerial(of path: String) -> String? {
    let real = resolvedPath(path)
    return ports().first { $0.name == path || $0.name == real }?.serialNumber
  }

  private static func resolvedPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
