import Foundation
import Testing

/// A prompt handshake (issue 13, docs/protocol.md §4.1): the first probe of a running board
/// takes one round trip, and probes succeed over a lossy line.
@Suite struct HandshakeTests {
  /// `probe --json` of the board served at `port`.
  static func probe(_ port: String) throws -> [String: Any] {
    let result = try CLIRunner.run(["probe", "--port", port, "--json", "--timeout", "2"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test("A board that booted 0.3 s or 2.5 s before answers the first probe in one round trip", arguments: [0.3, 2.5])
  func firstProbe(after seconds: Double) throws {
    let server = try BackgroundCLI(["sim", "serve"])
    defer { _ = server.terminate() }
    usleep(UInt32(seconds * 1_000_000))  // its reset notice went unanswered, its RTO backed off
    let answer = try #require(try Self.probe(server.firstLine)["answer_ms"] as? Double)
    // Before first contact resent at once: 53–1076 ms (the board's backed-off RTO).
    #expect(answer <= 50, "\(answer) ms")
  }

  @Test("Ten probes over 1 % byte loss, 0.1 % corruption and 200 ppm drift all succeed")
  func lossyProbes() throws {
    let server = try BackgroundCLI(["sim", "serve", "--drop", "0.01", "--corrupt", "0.001", "--drift-ppm", "200"])
    defer { _ = server.terminate() }
    var answers: [Double] = []
    for _ in 0..<10 {
      let report = try Self.probe(server.firstLine)
      #expect(report["supports_haptics"] as? Bool == true, "\(report)")
      answers.append(report["answer_ms"] as? Double ?? .infinity)
    }
    print("answers over the lossy line (ms): \(answers)")
    #expect(answers.allSatisfy { $0 < 500 }, "\(answers)")
  }
}
