import Foundation
import Glibc
import HapticLocks
import Testing

@testable import HapticTransport

/// `flash` through RFC 2217 (issue 30): the reset by DTR over the network, and the local
/// pseudo-terminal the flashing tool runs on, bridged to the far port. Against a listener of
/// the test's own on 127.0.0.1 that records what arrives and when, so the telnet commands
/// themselves are checked (ser2net in front of an emulated board cannot show DTR: a
/// pseudo-terminal has no control lines).
@Suite("Port bridge and the reset by DTR over RFC 2217", .serialized)
struct PortBridgeTests {
  /// A one-client TCP listener on 127.0.0.1 recording every byte with its arrival time.
  final class Listener: Sendable {
    let port: Int
    private let listening: Int32
    private let client = Locked<Int32>(-1)
    private let received = Locked<[(time: Double, byte: UInt8)]>([])

    init() throws {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      listening = fd
      var address = sockaddr_in(
        sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
        sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 1) == 0
        }
      }
      port = bound ? Int(UInt16(bigEndian: address.sin_port)) : 0
      try #require(port > 0, "cannot listen on 127.0.0.1")
      Thread.detachNewThread { [self] in
        let fd = accept(listening, nil, nil)
        client.withLock { $0 = fd }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
          guard count > 0 else {
            client.withLock {
              close(fd)
              $0 = -1
            }
            return
          }
          let now = MonotonicTime.seconds()
          received.withLock { $0 += buffer[0..<count].map { (now, $0) } }
        }
      }
    }

    /// Closes the connection (the far side going away) and the listening socket; the recording
    /// thread ends on the close.
    func hangUp() {
      close(listening)
      client.withLock { if $0 >= 0 { shutdown($0, Int32(SHUT_RDWR)) } }
    }

    var bytes: [UInt8] { received.withLock { $0.map(\.byte) } }

    /// When the first occurrence of `pattern` finished arriving.
    func arrival(of pattern: [UInt8]) -> Double? {
      let all = received.withLock { $0 }
      guard all.count >= pattern.count else { return nil }
      for start in 0...(all.count - pattern.count) where all[start..<start + pattern.count].map(\.byte) == pattern {
        return all[start + pattern.count - 1].time
      }
      return nil
    }

    func send(_ bytes: [UInt8]) {
      let fd = client.withLock { $0 }
      _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Waits up to 2 s for `condition`.
    func wait(for condition: () -> Bool) -> Bool {
      let deadline = MonotonicTime.seconds() + 2
      while !condition() {
        guard MonotonicTime.seconds() < deadline else { return false }
        usleep(5_000)
      }
      return true
    }
  }

  static func control(_ value: UInt8) -> [UInt8] { [255, 250, 44, 5, value, 255, 240] }

  /// A `scheme://` connection to `listener`, its far port at 115 200 baud.
  static func connect(_ scheme: String, to listener: Listener) throws -> NetworkTransport {
    try NetworkTransport.open(try #require(try NetworkAddress.parse("\(scheme)://127.0.0.1:\(listener.port)")), baud: 115_200)
  }

  @Test("pulseReset: DTR and RTS off, 250 ms, on again, over RFC 2217; raw TCP has no lines")
  func resetPulse() throws {
    let listener = try Listener()
    defer { listener.hangUp() }
    let remote = try Self.connect("rfc2217", to: listener)
    defer { remote.close() }
    #expect(try remote.pulseReset())
    let off = Self.control(9) + Self.control(12)
    let on = Self.control(8) + Self.control(11)
    #expect(listener.wait { listener.arrival(of: off + on) != nil }, "\(listener.bytes)")
    // The opening set DTR and RTS on (the line set-up) before the pulse took them off.
    let setup = TelnetCodec.lineSetup(baud: 115_200)
    #expect(Array(listener.bytes.suffix(setup.count + off.count + on.count).prefix(setup.count)) == setup)
    let raw = try Listener()
    defer { raw.hangUp() }
    let tcp = try Self.connect("tcp", to: raw)
    defer { tcp.close() }
    #expect(try !tcp.pulseReset())
    usleep(50_000)
    #expect(raw.bytes.isEmpty, "raw TCP got \(raw.bytes)")
  }

  @Test("The off time is 250 ms, measured where the commands arrive")
  func resetPulseTiming() throws {
    let listener = try Listener()
    defer { listener.hangUp() }
    let remote = try Self.connect("rfc2217", to: listener)
    defer { remote.close() }
    _ = try remote.pulseReset()
    #expect(listener.wait { listener.arrival(of: Self.control(11)) != nil })
    // DTR went on once already in the line set-up: the pulse's "on" is the one after "off".
    let pulse = Self.control(9) + Self.control(12)
    let off = try #require(listener.arrival(of: pulse))
    let on = try #require(listener.arrival(of: pulse + Self.control(8)))
    // usleep sleeps at least what it is given; a loaded machine may add to it, never take away.
    #expect(on - off >= 0.25, "DTR off for \((on - off) * 1000) ms")
  }

  @Test("Bytes cross both ways, 0xFF escaped for telnet, and the rate a program sets goes to the far port")
  func bridge() throws {
    let listener = try Listener()
    defer { listener.hangUp() }
    let remote = try Self.connect("rfc2217", to: listener)
    defer { remote.close() }
    let bridge = try PortBridge(to: remote, baud: 115_200)
    defer { bridge.stop() }
    // A program opens the bridge's path at its own rate, as avrdude does, and writes.
    let program = try TTYTransport.open(path: bridge.path, baud: 57_600)
    defer { program.close() }
    let setBaud57600 = TelnetCodec.setBaud(57_600)
    #expect(listener.wait { listener.arrival(of: setBaud57600) != nil }, "no SET-BAUDRATE 57600: \(listener.bytes)")
    try program.write([0x30, 0x20, 0xFF, 0x01])
    #expect(listener.wait { listener.arrival(of: [0x30, 0x20, 0xFF, 0xFF, 0x01]) != nil }, "\(listener.bytes)")
    // The far side answers; an escaped 0xFF comes out once.
    listener.send([0x14, 0xFF, 0xFF, 0x10])
    var got: [UInt8] = []
    let deadline = MonotonicTime.seconds() + 2
    while got.count < 3 && MonotonicTime.seconds() < deadline { got += try program.read(timeout: 0.1) }
    #expect(got == [0x14, 0xFF, 0x10])
    // The program closes and another opens: the bridge carries on (it holds the path open).
    program.close()
    let next = try TTYTransport.open(path: bridge.path, baud: 57_600)
    defer { next.close() }
    try next.write([0x42])
    #expect(listener.wait { listener.bytes.last == 0x42 })
    #expect(bridge.stop() == nil)
  }

  @Test("The far side closing stops the bridge with the reason")
  func farSideCloses() throws {
    let listener = try Listener()
    defer { listener.hangUp() }
    let remote = try Self.connect("tcp", to: listener)
    defer { remote.close() }
    let bridge = try PortBridge(to: remote, baud: 115_200)
    defer { bridge.stop() }
    usleep(50_000)
    listener.hangUp()
    let deadline = MonotonicTime.seconds() + 2
    while bridge.failure == nil && MonotonicTime.seconds() < deadline { usleep(5_000) }
    #expect(bridge.failure?.code == .disconnected, "\(String(describing: bridge.failure))")
  }
}
