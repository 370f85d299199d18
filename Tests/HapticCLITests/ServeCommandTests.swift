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
    #expect(played == 201 && answer == #"{"play":1}"#, "\(played) \(answer)")
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

  /// Board `id`'s `state` as `GET /v1/boards/{id}` reports it, polled until it is `wanted` or
  /// `seconds` pass.
  static func state(_ base: String, _ id: String, becomes wanted: String, within seconds: Double) async throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    repeat {
      let (_, body) = try await request(base, "/v1/boards/\(id)")
      let board = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["board"] as? [String: Any]
      last = board?["state"] as? String ?? body
      if last == wanted { return last }
      try await Task.sleep(for: .milliseconds(50))
    } while Date() < deadline
    return last
  }

  @Test("A serial board (sim serve on a pseudo-terminal): served by its port; unplugged it is gone (502), and it is served again when its port comes back")
  func serialBoardComesBack() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-port-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let port = folder.appendingPathComponent("board").path
    let board = try BackgroundCLI(["sim", "serve", "--link", port])
    let server = try BackgroundCLI(["serve", "--port", port, "--listen", "127.0.0.1:0"])
    defer { _ = server.terminate() }
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let (status, boards) = try await Self.request(base, "/v1/boards")
    #expect(status == 200 && boards.contains(#""source":"\#(port)""#) && boards.contains(#""id":"sim-lra""#), "\(boards)")
    let tap = try Data(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap"))
    #expect(try await Self.request(base, "/v1/boards/sim-lra/play", method: .post, body: tap).0 == 201)

    _ = board.terminate()
    #expect(try await Self.state(base, "sim-lra", becomes: "gone", within: 3) == "gone")
    let (refused, error) = try await Self.request(base, "/v1/boards/sim-lra/play", method: .post, body: tap)
    #expect(refused == 502 && error.contains("is gone"), "\(refused) \(error)")

    let again = try BackgroundCLI(["sim", "serve", "--link", port])
    defer { _ = again.terminate() }
    #expect(try await Self.state(base, "sim-lra", becomes: "running", within: 5) == "running")
    #expect(try await Self.request(base, "/v1/boards/sim-lra/play", method: .post, body: tap).0 == 201)
    let end = server.terminate()
    #expect(end.status == 0, "\(end.stderr)")
  }

  @Test("Usage errors: no board, a --board per --port, a port that does not open")
  func usage() throws {
    let none = try CLIRunner.run(["serve"])
    #expect(none.status == 64 && none.stderr.contains("--sim ID, --port PATH or --scan"), "\(none.stderr)")
    let boards = try CLIRunner.run(["serve", "--port", "/dev/null", "--board", "sim-lra", "--board", "sim-erm"])
    #expect(boards.status == 64 && boards.stderr.contains("one per port"), "\(boards.stderr)")
    let missing = try CLIRunner.run(["serve", "--port", "/nonexistent/ttyACM9", "--listen", "127.0.0.1:0"])
    #expect(missing.status == 1 && missing.stderr.contains("cannot open /nonexistent/ttyACM9"), "\(missing.stderr)")
  }

  @Test("send --server plays through the server (its board stays open) and reports how the player ended; --live stop stops it")
  func sendThroughServer() async throws {
    let server = try BackgroundCLI(["serve", "--sim", "sim-lra", "--listen", "127.0.0.1:0", "--token", "t0k"])
    defer { _ = server.terminate() }
    let base = String(server.firstLine.dropFirst("listening on ".count))
    let tap = CLIRunner.packageRoot.appendingPathComponent("Examples/tap.ahap").path
    let played = try CLIRunner.run(["send", tap, "--server", base, "--token", "t0k", "--json"])
    #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])
    #expect(report["state"] as? String == "finished" && report["board"] as? String == "sim-lra", "\(report)")
    let wall = try #require(report["wall_s"] as? Double)
    #expect(wall < 2, "no port to open, no clock to sync: \(wall) s")

    let looped = try CLIRunner.run(
      ["send", "--preset", "success", "--loop", "--live", "--server", base, "--token", "t0k"], input: [(0.3, "stop")])
    #expect(looped.status == 0 && looped.stdout.contains("finished"), "\(looped.stdout)\(looped.stderr)")

    let wrongBoard = try CLIRunner.run(["send", tap, "--server", base, "--token", "t0k", "--board", "uno-hbridge"])
    #expect(wrongBoard.status == 1 && wrongBoard.stderr.contains("serves no board uno-hbridge"), "\(wrongBoard.stderr)")
    let noToken = try CLIRunner.run(["send", tap, "--server", base])
    #expect(noToken.status == 1 && noToken.stderr.contains("token"), "\(noToken.stderr)")
    let probed = try CLIRunner.run(["probe", "--server", base, "--token", "t0k", "--json"])
    #expect(probed.status == 0 && probed.stdout.contains(#""id":"sim-lra""#) && probed.stdout.contains(#""health""#), "\(probed.stdout)\(probed.stderr)")
    let unknown = try CLIRunner.run(["probe", "--server", base, "--token", "t0k", "--board", "nope"])
    #expect(unknown.status == 1 && unknown.stderr.contains("no board nope"), "\(unknown.stderr)")
    let (status, _) = try await Self.request(base, "/v1/boards?access_token=t0k")
    #expect(status == 200, "the token as a query parameter (a browser's WebSocket cannot send the header)")
  }
}
