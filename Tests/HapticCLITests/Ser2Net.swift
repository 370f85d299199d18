import Foundation

/// ser2net (Debian's, 4.x) on 127.0.0.1 in front of a pseudo-terminal, for the remote-port
/// tests (issue 30): a raw TCP accepter and a telnet RFC 2217 one on free ports, both connected
/// to `device`, run in the foreground with its own config file, no UUCP lock, no byte batching
/// (`chardelay: false`: ser2net otherwise waits for a gap in the bytes before it passes them
/// on) and no Nagle wait on its socket (`tcp(nodelay)`: without it a bootloader's page, read in
/// pieces, waited for our delayed acknowledgement, and `flash` took 20 s instead of 7).
final class Ser2Net {
  let process = Process()
  let folder: URL
  /// `tcp://127.0.0.1:PORT` and `rfc2217://127.0.0.1:PORT`.
  let raw: String
  let rfc2217: String

  /// The program, or nil when it is not installed.
  static let executable = ["/usr/sbin/ser2net", "/usr/bin/ser2net"].first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Starts ser2net in front of `device` at `baud` and waits until both ports accept.
  init(device: String, baud: Int = 115_200) throws {
    guard let executable = Self.executable else {
      throw Ser2NetError("ser2net is missing: apt-get install ser2net (Scripts/install-system-deps.sh installs it)")
    }
    folder = try CLIRunner.scratchFolder("ser2net")
    let ports = try (0..<2).map { _ in try Self.freePort() }
    raw = "tcp://127.0.0.1:\(ports[0])"
    rfc2217 = "rfc2217://127.0.0.1:\(ports[1])"
    let config = """
      connection: &raw
        accepter: tcp(nodelay),127.0.0.1,\(ports[0])
        connector: serialdev,\(device),\(baud)n81,local
        options:
          kickolduser: true
          chardelay: false
      connection: &rfc2217
        accepter: telnet(rfc2217),tcp(nodelay),127.0.0.1,\(ports[1])
        connector: serialdev,\(device),\(baud)n81,local
        options:
          kickolduser: true
          chardelay: false

      """
    let file = folder.appendingPathComponent("ser2net.yaml")
    try config.write(to: file, atomically: true, encoding: .utf8)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-n", "-u", "-P", folder.appendingPathComponent("ser2net.pid").path, "-c", file.path]
    let log = folder.appendingPathComponent("ser2net.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    for port in ports {
      let deadline = Date().addingTimeInterval(5)
      while !Self.accepts(port) {
        guard process.isRunning, Date() < deadline else {
          throw Ser2NetError("ser2net did not listen on 127.0.0.1:\(port): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        usleep(20_000)
      }
    }
  }

  /// Ends ser2net (its connections close, as a network going away does). SIGKILL: a child of
  /// the test process inherits the signal mask of the thread that started it, where SIGTERM
  /// may be blocked (ser2net then never saw it, and the test waited for its exit forever).
  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// A TCP port free on 127.0.0.1 now (the kernel's choice for a socket bound to port 0).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Ser2NetError("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw Ser2NetError("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// 127.0.0.1:`port` as a socket address.
  static func loopback(port: Int) -> sockaddr_in {
    sockaddr_in(
      sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")),
      sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
  }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  static func accepts(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
  }
}

/// Why ser2net could not be run for a test.
struct Ser2NetError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
