public import Foundation
import Hummingbird

/// The studio's web page (issue 29): static HTML, CSS and JavaScript shipped in the package
/// (`Sources/HapticServer/Studio`, copied beside the executable as its resource bundle), served at
/// `/studio/` by ``BoardServer``. Nothing is fetched from outside the server.
public struct StudioPage: Sendable {
  /// The folder of the page's files.
  public let folder: URL
  /// The files, by name, and their content types.
  let files: [String: String]

  /// The content type of each kind of file the page ships.
  static let types = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
  ]

  /// The page in folder `given`, or found beside the running executable (its resource bundle,
  /// `hapticctl_HapticServer.resources/Studio`), then in the package's sources (a test build).
  ///
  /// - Throws: ``ServerError`` `notFound` naming the places looked in when none holds
  ///   `index.html`.
  public init(folder given: String? = nil) throws(ServerError) {
    var candidates: [URL] = []
    if let given {
      candidates.append(URL(fileURLWithPath: given))
    } else {
      let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
      if let executable {
        candidates.append(executable.appendingPathComponent("hapticctl_HapticServer.resources/Studio"))
      }
      candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Studio"))
    }
    guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) })
    else {
      throw ServerError(
        .notFound, field: "studio",
        "the studio's page is not installed: no index.html in \(candidates.map(\.path).joined(separator: " or "))")
    }
    folder = found
    let names = (try? FileManager.default.contentsOfDirectory(atPath: found.path)) ?? []
    var files: [String: String] = [:]
    for name in names {
      if let type = Self.types[URL(fileURLWithPath: name).pathExtension] { files[name] = type }
    }
    self.files = files
  }

  /// Serves `GET /studio` and `/studio/` (the page) and `GET /studio/NAME` (its files; only the
  /// folder's own files of known types, so no path reaches outside it).
  func add<Context: RequestContext>(to router: Router<Context>) {
    let page = self
    router.get("studio") { _, _ -> Response in try page.response(for: "index.html") }
    router.get("studio/:file") { _, context -> Response in
      try page.response(for: try context.parameters.require("file"))
    }
  }

  /// File `name` as a response.
  func response(for name: String) throws(ServerError) -> Response {
    guard let type = files[name], let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
    else { throw ServerError(.notFound, field: "file", "the studio has no file \(name)") }
    var headers = HTTPFields()
    headers[.contentType] = type
    headers[.cacheControl] = "no-cache"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: Array(data))))
  }
}
