import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `hapticctl serve` as a user runs it: a real process, a real socket, SIGTERM to end it.
@Suite("hapticctl serve")
struct ServeCommandTests {
  /// The status and body of `method path` on the server at `base` (`http://HOST:PORT`), with
  /// `body` and `token`, if any, over a fresh TCP connection.
  static func request(
    _ base: String, _ path: String, method: HTTPRequest.Method = .get, body: Data? = nil, token: String? = nil
  ) async throws -> (Int, String) {
    let address = base.dropFirst("http://".count).split(separator: ":")
    let client = TestClient(host: String(address[0]), port: try #require(Int(address[1])))
    client.connect()
    var headers = HTTPFields()
    if let token { headers[.authorization] = "Bearer \(token)" }
    let response = try await client.execute(
      TestClient.Request(path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }))
    try await client.shutdown()
    return (response.status.code, response.body.map { String(buffer: $0) } ?? "")
  }

  @Test("It prints its address first, serves the board, plays a file, and a second server on the port is refused by name")
  func serves() async throws {
    let server = try BackgroundCLI(["serve", "--sim", "sim-lra", "--listen", "127.0.0.1:0"])
    #expect(server.firstLine.hasPrefix("listening on http://127.0.0.1:"), "\(server.firstLine)")
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let (status, boards) = try await Self.request(base, "/v1/boards")
    #expect(status == 200 && boards.contains(#""id":"sim-lra""#), "\(status) \(boards)")
    let tap = try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap"))
    let (played, answer) = try await Self.request(base, "/v1/boards/sim-lra/play", method: .post, body: tap)
    #expect(played == 201 && answer == #"{"player":1}"#, "\(played) \(answer)")
    let port = try #require(base.split(separator: ":").last)
    let second = try CLIRunner.run(["serve", "--sim", "sim-lra", "--listen", "127.0.0.1:\(port)"])
    #expect(second.status == 1 && second.stderr.contains("127.0.0.1:\(port) is in use"), "\(second.stderr)")
    let end = server.terminate()
    #expect(end.status == 0 && end.stderr.contains("server stopped"), "\(end.status) \(end.stderr)")
  }

  @Test("Off loopback it needs a token; with one, every request must carry it")
  func token() async throws {
    let refused = try CLIRunner.run(["serve", "--sim", "sim-lra", "--listen", "0.0.0.0:0"])
    #expect(refused.status == 64 && refused.stderr.contains("--token"), "\(refused.stderr)")
    let server = try BackgroundCLI(["serve", "--sim", "sim-lra", "--listen", "127.0.0.1:0", "--token", "s3cret"])
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let (without, error) = try await Self.request(base, "/v1/boards")
    #expect(without == 401 && error.contains(#""field":"Authorization""#), "\(without) \(error)")
    let (wrong, _) = try await Self.request(base, "/v1/boards", token: "guess")
    #expect(wrong == 401)
    let (with, _) = try await Self.request(base, "/v1/boards", token: "s3cret")
    #expect(with == 200)
    #expect(server.terminate().status == 0)
  }
}
