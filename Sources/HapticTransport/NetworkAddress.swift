/// A board port on another machine, as `--port` names it (issue 30): `tcp://HOST:PORT`, a raw
/// byte stream (ser2net's `tcp` accepter), or `rfc2217://HOST:PORT`, telnet with RFC 2217 com
/// port control (ser2net's `telnet(rfc2217)`: the baud rate and DTR/RTS travel too). HOST is a
/// name, an IPv4 address or a bracketed IPv6 one (`[::1]`).
public struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
  /// How bytes travel.
  public enum Kind: String, Sendable {
    /// The raw byte stream.
    case tcp
    /// Telnet with RFC 2217 com port control.
    case rfc2217
  }

  /// How bytes travel.
  public var kind: Kind
  /// The machine: a name or an address (IPv6 without its brackets).
  public var host: String
  /// The TCP port, 1…65535.
  public var port: Int

  /// The address `text` names, or nil when it is not a network URL at all (a device path).
  ///
  /// - Throws: ``TransportError`` `portNotFound` naming `text` when it starts like one but is
  ///   malformed (no host, no port, a port outside 1…65535, anything after the port).
  public static func parse(_ text: String) throws(TransportError) -> NetworkAddress? {
    let characters = Array(text.utf8)
    guard let at = characters.indices.first(where: { characters[$0...].starts(with: Array("://".utf8)) }) else { return nil }
    let schemeEnd = text.utf8.index(text.startIndex, offsetBy: at)
    let scheme = text[..<schemeEnd].lowercased()
    guard let kind = Kind(rawValue: scheme) else {
      if scheme.allSatisfy({ $0.isLetter || $0.isNumber }) && !scheme.isEmpty {
        throw TransportError(.portNotFound, port: text, "unknown kind of port \(scheme):// (use tcp://HOST:PORT or rfc2217://HOST:PORT)")
      }
      return nil
    }
    var rest = text[text.utf8.index(schemeEnd, offsetBy: 3)...]
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    let host: Substring
    let portText: Substring
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
        throw malformed(text, "an IPv6 host goes in brackets before the port: \(kind.rawValue)://[::1]:3000")
      }
      host = rest[rest.index(after: rest.startIndex)..<close]
      portText = rest[rest.index(close, offsetBy: 2)...]
    } else {
      guard let colon = rest.lastIndex(of: ":") else { throw malformed(text, "no port: \(kind.rawValue)://HOST:PORT") }
      host = rest[..<colon]
      portText = rest[rest.index(after: colon)...]
    }
    guard !host.isEmpty, !host.contains("/"), !host.contains(":") || text.contains("[") else {
      throw malformed(text, "no host: \(kind.rawValue)://HOST:PORT")
    }
    guard let port = Int(portText), (1...65_535).contains(port) else {
      throw malformed(text, "the port must be a number from 1 to 65535, not \"\(portText)\"")
    }
    return NetworkAddress(kind: kind, host: String(host), port: port)
  }

  private static func malformed(_ text: String, _ why: String) -> TransportError {
    TransportError(.portNotFound, port: text, why)
  }

  /// `tcp://HOST:PORT` or `rfc2217://HOST:PORT`.
  public var description: String {
    "\(kind.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
  }
}
