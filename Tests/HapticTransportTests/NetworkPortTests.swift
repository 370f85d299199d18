import PropertyBased
import Testing

@testable import HapticTransport

/// Ports on another machine (issue 30): `tcp://` and `rfc2217://` addresses, and the telnet side
/// of RFC 2217 (escaping, commands taken out of the data, answers to the server's requests).
@Suite("Network ports: addresses and the RFC 2217 codec")
struct NetworkPortTests {
  @Test("tcp:// and rfc2217:// addresses parse; device paths are not addresses")
  func addresses() throws {
    #expect(try NetworkAddress.parse("tcp://127.0.0.1:3000") == NetworkAddress(kind: .tcp, host: "127.0.0.1", port: 3000))
    #expect(try NetworkAddress.parse("RFC2217://pi.local:2000/") == NetworkAddress(kind: .rfc2217, host: "pi.local", port: 2000))
    #expect(try NetworkAddress.parse("tcp://[::1]:3001") == NetworkAddress(kind: .tcp, host: "::1", port: 3001))
    #expect(try NetworkAddress.parse("tcp://[::1]:3001")?.description == "tcp://[::1]:3001")
    for path in ["/dev/ttyACM0", "/dev/pts/3", "board-link", "./tcp:3000"] {
      #expect(try NetworkAddress.parse(path) == nil, "\(path) is a device path")
    }
  }

  @Test("Malformed addresses are refused naming the URL and what is wrong")
  func malformed() {
    let cases = [
      ("tcp://127.0.0.1", "no port"), ("tcp://:3000", "no host"), ("rfc2217://host:0", "from 1 to 65535"),
      ("tcp://host:70000", "from 1 to 65535"), ("tcp://host:http", "from 1 to 65535"), ("ftp://host:21", "unknown kind of port ftp://"),
      ("tcp://[::1]3000", "brackets"), ("tcp://host/x:1", "no host"),
    ]
    for (text, why) in cases {
      do {
        _ = try NetworkAddress.parse(text)
        Issue.record("\(text) was taken")
      } catch {
        #expect(error.port == text && error.code == .portNotFound && error.message.contains(why), "\(text): \(error)")
      }
    }
  }

  @Test("Data escaped for telnet decodes to itself, in any split")
  func escapeRoundTrip() async {
    await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...400), Gen.int(in: 0...400)) { bytes, cut in
      let escaped = TelnetCodec.escape(bytes)
      #expect(escaped.count == bytes.count + bytes.filter { $0 == 0xFF }.count)
      var codec = TelnetCodec()
      let split = min(cut, escaped.count)
      let first = codec.decode(Array(escaped[..<split])), second = codec.decode(Array(escaped[split...]))
      #expect(first.data + second.data == bytes)
      #expect(first.replies.isEmpty && second.replies.isEmpty && first.answers.isEmpty && second.answers.isEmpty)
    }
  }

  @Test("Commands are taken out of the data; requests for other options are declined once; com port answers are read")
  func commands() {
    var codec = TelnetCodec()
    // Data, the server agreeing to binary, asking for echo (declined) twice, a NOP, more data.
    var out = codec.decode([0x41, 255, 251, 0, 0x42, 255, 253, 1, 255, 253, 1, 255, 241, 0x43])
    #expect(out.data == [0x41, 0x42, 0x43])
    #expect(out.replies == [255, 252, 1], "WONT ECHO, once")
    // SET-BAUDRATE's answer (1 + 100) split across reads, its value holding an escaped 0xFF.
    out = codec.decode([0x44, 255, 250, 44, 101, 0x00, 0x01])
    #expect(out.data == [0x44] && out.answers.isEmpty)
    out = codec.decode([255, 255, 0x00, 255, 240, 0x45])
    #expect(out.data == [0x45])
    #expect(out.answers.count == 1 && out.answers[0].command == 101 && out.answers[0].value == [0x00, 0x01, 0xFF, 0x00])
  }

  @Test("The line setup: 8N1, no flow control, DTR and RTS on, the baud rate in network order")
  func lineSetup() {
    let setup = TelnetCodec.lineSetup(baud: 115_200)
    #expect(Array(setup.prefix(10)) == [255, 250, 44, 1, 0x00, 0x01, 0xC2, 0x00, 255, 240])
    let commands = [[2, 8], [3, 1], [4, 1], [5, 1], [5, 8], [5, 11]].map { [255, 250, 44] + $0.map(UInt8.init) + [255, 240] }
    #expect(Array(setup.dropFirst(10)) == commands.flatMap { $0 })
    // A rate whose bytes hold 0xFF is escaped inside the command.
    #expect(TelnetCodec.setBaud(0xFF) == [255, 250, 44, 1, 0, 0, 0, 255, 255, 255, 240])
  }
}
