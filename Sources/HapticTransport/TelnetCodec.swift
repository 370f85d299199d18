/// The telnet side of an RFC 2217 port (`rfc2217://HOST:PORT`, e.g. ser2net's
/// `telnet(rfc2217)` accepter): data bytes 0xFF doubled on the way out and undoubled on the way
/// in, telnet commands taken out of the stream and answered, and the Com Port Control option's
/// commands (RFC 2217 §3: baud rate, data size, parity, stop size, control lines) written.
///
/// A value: the transport keeps one under a lock; ``decode(_:)`` carries a command split across
/// reads over to the next.
struct TelnetCodec: Sendable {
  static let iac: UInt8 = 255
  static let will: UInt8 = 251
  static let wont: UInt8 = 252
  static let `do`: UInt8 = 253
  static let dont: UInt8 = 254
  static let sb: UInt8 = 250
  static let se: UInt8 = 240
  /// Options: binary transmission (RFC 856), suppress go-ahead (RFC 858), com port (RFC 2217).
  static let binary: UInt8 = 0
  static let suppressGoAhead: UInt8 = 3
  static let comPort: UInt8 = 44

  /// RFC 2217 client commands (the server answers each with the command + 100).
  enum Command: UInt8 {
    case setBaudRate = 1
    case setDataSize = 2
    case setParity = 3
    case setStopSize = 4
    case setControl = 5
  }

  /// SET-CONTROL values (RFC 2217 §3): no flow control, DTR and RTS on and off.
  enum Control: UInt8 {
    case noFlowControl = 1
    case dtrOn = 8
    case dtrOff = 9
    case rtsOn = 11
    case rtsOff = 12
  }

  /// What the decoder is in the middle of.
  private enum Phase: Sendable {
    case data
    case command  // after IAC
    case option(UInt8)  // after IAC WILL/WONT/DO/DONT
    case subnegotiation([UInt8], escaped: Bool)  // after IAC SB, until IAC SE
  }

  private var phase = Phase.data
  /// Options the server has asked us to use or offered, already answered (no answer twice: a
  /// telnet negotiation loop).
  private var answered: Set<[UInt8]> = []

  /// What a read brought: the data, the answers to write back, and the com-port answers
  /// (command + 100, value) the server sent.
  struct Decoded: Sendable {
    var data: [UInt8] = []
    var replies: [UInt8] = []
    var answers: [(command: UInt8, value: [UInt8])] = []
  }

  /// The client's opening: it will and asks the server to use binary and no go-ahead both
  /// ways, and will use the com port option.
  static let opening: [UInt8] = [
    iac, will, binary, iac, `do`, binary, iac, will, suppressGoAhead, iac, `do`, suppressGoAhead, iac, will, comPort,
  ]

  /// `bytes` with each 0xFF doubled (an IAC in the data).
  static func escape(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(iac) else { return bytes }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 8)
    for byte in bytes {
      out.append(byte)
      if byte == iac { out.append(iac) }
    }
    return out
  }

  /// A com port command: IAC SB COM-PORT-OPTION command value IAC SE (the value escaped).
  static func command(_ command: Command, _ value: [UInt8]) -> [UInt8] {
    [iac, sb, comPort, command.rawValue] + escape(value) + [iac, se]
  }

  /// SET-BAUDRATE `baud` (4 bytes, network order).
  static func setBaud(_ baud: Int) -> [UInt8] {
    let value = UInt32(clamping: baud)
    return command(.setBaudRate, [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
  }

  /// The line set up as the serial transports set it: `baud`, 8 data bits, no parity, 1 stop
  /// bit, no flow control, DTR and RTS on.
  static func lineSetup(baud: Int) -> [UInt8] {
    setBaud(baud) + command(.setDataSize, [8]) + command(.setParity, [1]) + command(.setStopSize, [1])
      + command(.setControl, [Control.noFlowControl.rawValue]) + controlLines(on: true)
  }

  /// SET-CONTROL DTR and RTS both on, or both off.
  static func controlLines(on: Bool) -> [UInt8] {
    command(.setControl, [(on ? Control.dtrOn : .dtrOff).rawValue]) + command(.setControl, [(on ? Control.rtsOn : .rtsOff).rawValue])
  }

  /// Takes the telnet commands out of `bytes`, answering option requests (yes to binary, no
  /// go-ahead and the com port option; no to anything else), and returns the data.
  mutating func decode(_ bytes: [UInt8]) -> Decoded {
    var out = Decoded()
    out.data.reserveCapacity(bytes.count)
    for byte in bytes {
      switch phase {
      case .data:
        if byte == Self.iac { phase = .command } else { out.data.append(byte) }
      case .command:
        switch byte {
        case Self.iac:
          out.data.append(Self.iac)
          phase = .data
        case Self.will, Self.wont, Self.do, Self.dont: phase = .option(byte)
        case Self.sb: phase = .subnegotiation([], escaped: false)
        default: phase = .data  // NOP, GA, …: nothing to do
        }
      case .option(let verb):
        answer(verb, option: byte, into: &out.replies)
        phase = .data
      case .subnegotiation(var body, let escaped):
        if escaped {
          if byte == Self.se {
            if body.count >= 2, body[0] == Self.comPort { out.answers.append((body[1], Array(body.dropFirst(2)))) }
            phase = .data
          } else {
            body.append(byte)  // IAC IAC: a 0xFF of the value
            phase = .subnegotiation(body, escaped: false)
          }
        } else if byte == Self.iac {
          phase = .subnegotiation(body, escaped: true)
        } else {
          body.append(byte)
          phase = .subnegotiation(body, escaped: false)
        }
      }
    }
    return out
  }

  /// The answer to the server's `verb` about `option`, once per request.
  private mutating func answer(_ verb: UInt8, option: UInt8, into replies: inout [UInt8]) {
    guard answered.insert([verb, option]).inserted else { return }
    let wanted = [Self.binary, Self.suppressGoAhead, Self.comPort].contains(option)
    switch verb {
    case Self.will:
      // The server will use it: agree for ours (the opening asked for binary and no go-ahead).
      if !wanted { replies += [Self.iac, Self.dont, option] }
    case Self.do:
      // The server asks us to use it: the opening said we will for ours.
      if !wanted { replies += [Self.iac, Self.wont, option] }
    default:
      break  // WONT, DONT: acknowledged by doing without
    }
  }
}
