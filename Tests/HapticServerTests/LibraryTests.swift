import Foundation
import HapticServer
import Hummingbird
import HummingbirdTesting
import Testing

/// `--library DIR`: files played by name, nothing outside the folder readable.
@Suite("Board server: the pattern library")
struct LibraryTests {
  /// A library with `taps/tap.ahap` and a broken file, beside a secret file and a symbolic link
  /// in the library that points at it.
  static func folder() throws -> (library: URL, root: URL) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let library = root.appendingPathComponent("lib")
    try FileManager.default.createDirectory(at: library.appendingPathComponent("taps"), withIntermediateDirectories: true)
    try Data(BoardServerTests.tap.utf8).write(to: library.appendingPathComponent("taps/tap.ahap"))
    try Data(#"{"Pattern":[{"Event":{"Time":-1,"EventType":"HapticTransient"}}]}"#.utf8).write(to: library.appendingPathComponent("broken.ahap"))
    try Data(BoardServerTests.tap.utf8).write(to: root.appendingPathComponent("secret.ahap"))
    try FileManager.default.createSymbolicLink(
      at: library.appendingPathComponent("link.ahap"), withDestinationURL: root.appendingPathComponent("secret.ahap"))
    return (library, root)
  }

  @Test("Lists and plays its files; refuses .., absolute paths and links out (403), missing files (404), broken ones (400)")
  func confined() async throws {
    let (library, root) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub, library: try PatternLibrary(folder: library.path)))
    try await app.test(.router) { client in
      let files = try await PlayerAPITests.send(client, .get, "/v1/library")
      #expect(files.json["files"] as? [String] == ["broken.ahap", "taps/tap.ahap"], "\(files.json)")
      let played = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/players?file=taps/tap.ahap")
      #expect(played.status == .created && (played.json["player"] as? [String: Any])?["source"] as? String == "file taps/tap.ahap")
      let refused: [(String, HTTPResponse.Status, String)] = [
        ("../secret.ahap", .forbidden, "file"), ("taps/../../secret.ahap", .forbidden, "file"),
        ("\(root.path)/secret.ahap", .forbidden, "file"), ("link.ahap", .forbidden, "file"),
        ("none.ahap", .notFound, "file"), ("broken.ahap", .badRequest, "Pattern[0].Event.Time"),
      ]
      for (name, status, field) in refused {
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["/", ".", "_"])) ?? name
        let answer = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/players?file=\(escaped)")
        let error = answer.json["error"] as? [String: Any]
        #expect(answer.status == status && error?["field"] as? String == field, "\(name): \(answer.status) \(answer.json)")
      }
    }
  }

  @Test("A library that is not a folder is refused by name")
  func notAFolder() {
    #expect(throws: ServerError.self) { try PatternLibrary(folder: "/nonexistent/patterns") }
  }
}
