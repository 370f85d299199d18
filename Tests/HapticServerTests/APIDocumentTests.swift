import Foundation
import HapticServer
import Hummingbird
import HummingbirdTesting
import Testing

/// docs/api.yaml against the server: every operation it lists is served and answers only the
/// statuses it documents; a path it does not list is 404 (issue 28: the document is normative).
@Suite("Board server: docs/api.yaml")
struct APIDocumentTests {
  struct Operation: CustomStringConvertible {
    var method: String
    var path: String
    var statuses: Set<Int>
    var description: String { "\(method.uppercased()) \(path)" }
  }

  /// The operations of docs/api.yaml: each path (`  /v1/…:`), its methods (`    get:` …) and
  /// their response codes (`        "200":`), read by indentation (the document keeps to it).
  static func operations() throws -> [Operation] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/api.yaml")
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    var operations: [Operation] = []
    var path: String?
    var inPaths = false
    var anchors: [String: Int] = [:]
    var aliases: [(Int, String)] = []
    for line in lines {
      if line.hasPrefix("paths:") { inPaths = true; continue }
      if inPaths && !line.hasPrefix(" ") && !line.isEmpty && !line.hasPrefix("#") { inPaths = false }
      guard inPaths else { continue }
      if line.hasPrefix("  /"), line.hasSuffix(":") {
        path = String(line.dropFirst(2).dropLast())
      } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "),
        let method = ["get", "post", "put", "patch", "delete"].first(where: { line == "    \($0):" })
      {
        operations.append(Operation(method: method, path: path, statuses: []))
      } else if line.hasPrefix("        \""), let code = Int(line.dropFirst(9).prefix(3)), !operations.isEmpty {
        operations[operations.count - 1].statuses.insert(code)
      } else if line.hasPrefix("      responses: &"), !operations.isEmpty {
        anchors[String(line.dropFirst("      responses: &".count))] = operations.count - 1
      } else if line.hasPrefix("      responses: *"), !operations.isEmpty {
        aliases.append((operations.count - 1, String(line.dropFirst("      responses: *".count))))
      }
    }
    // `responses: *name` takes the responses of the operation that declared `&name`.
    for (index, name) in aliases {
      if let owner = anchors[name] { operations[index].statuses = operations[owner].statuses }
    }
    return operations
  }

  @Test("Every documented operation answers a documented status; undocumented paths are 404")
  func conforms() async throws {
    let operations = try Self.operations()
    #expect(operations.count >= 18, "\(operations)")
    let (hub, _) = try BoardServerTests.hub()
    defer { hub.close() }
    let app = Application(router: BoardServer.router(hub: hub))
    try await app.test(.router) { client in
      let created = try await PlayerAPITests.send(client, .post, "/v1/boards/sim-lra/players?start=false", PlayerAPITests.held)
      let player = try #require((created.json["player"] as? [String: Any])?["id"] as? Int)
      // Deleting comes last (the player is used by the others).
      for operation in operations.sorted(by: { ($0.method == "delete" ? 1 : 0) < ($1.method == "delete" ? 1 : 0) }) {
        let uri = operation.path.replacingOccurrences(of: "{id}", with: "sim-lra")
          .replacingOccurrences(of: "{player}", with: "\(player)")
        let body = operation.path.hasSuffix("/seek") ? #"{"offset": 0.1}"# : operation.path.hasSuffix("/parameters")
          ? #"{"intensity": 0.5}"# : operation.method == "patch" ? #"{"rate": 1}"# : operation.path.contains("validate")
          || operation.path.hasSuffix("/play") || operation.path.hasSuffix("/players") && operation.method == "post"
          ? PlayerAPITests.held : ""
        let method = HTTPRequest.Method(rawValue: operation.method.uppercased())!
        let answer = try await PlayerAPITests.send(client, method, uri, body)
        #expect(operation.statuses.contains(Int(answer.status.code)), "\(operation) answered \(answer.status) \(answer.json), documented \(operation.statuses.sorted())")
        // A documented operation is served: never the router's bare 404 for an unknown path.
        #expect(!(answer.status == .notFound && answer.json.isEmpty), "\(operation) is not served")
      }
      for path in ["/v1/board", "/v1/players/1/jump", "/v2/boards"] {
        let answer = try await PlayerAPITests.send(client, .get, path)
        #expect(answer.status == .notFound && answer.json.isEmpty, "\(path): \(answer.status)")
      }
    }
  }
}
