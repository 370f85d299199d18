public import Foundation
public import HapticAHAP
import HapticClip
public import HapticCore
import HapticEngine

/// Where a played pattern comes from: a document the client sends, a file of the server's
/// library (`--library DIR`), or a preset.
enum PatternSource: Sendable {
  /// A document's bytes, its format if given, and what errors call it (`body`, `document`).
  case document([UInt8], PatternFormat?, name: String)
  case file(String)
  case preset(String, intensity: Double)

  /// The pattern, read with the CLI's rules, and how clients see where it came from.
  ///
  /// - Throws: ``ServerError`` `badRequest` naming the document's first bad entry (its JSON
  ///   path, with line:column in the message) or the unknown preset; `forbidden` or `notFound`
  ///   for a file outside the library or not in it.
  func load(library: PatternLibrary?) throws(ServerError) -> (pattern: HapticPattern, source: String) {
    switch self {
    case .document(let bytes, let format, let name):
      return (try Self.read(bytes, format: format, file: name).pattern, "document")
    case .file(let name):
      guard let library else {
        throw ServerError(.notFound, field: "file", "this server has no library (start it with --library DIR)")
      }
      return (try library.load(name), "file \(name)")
    case .preset(let name, let intensity):
      guard let pattern = HapticPresets.pattern(name, intensity: intensity) else {
        throw ServerError(
          .badRequest, field: "preset",
          "no preset \(name) (presets: \(HapticPresets.all.map(\.name).joined(separator: ", ")))")
      }
      return (pattern, "preset \(name)")
    }
  }

  /// `bytes` as a pattern document, in `format` or the one its content shows; `file` names it in
  /// diagnostics.
  static func read(_ bytes: [UInt8], format: PatternFormat?, file: String) throws(ServerError) -> AHAPDocument {
    do {
      return try PatternFileReader(format: format).read(bytes, file: file)
    } catch {
      let first = error.errors.first
      let path = first?.path ?? ""
      throw ServerError(.badRequest, field: path.isEmpty ? file : path, first.map { "\($0)" } ?? "\(error)")
    }
  }

  /// A `format` field's value.
  static func format(_ name: String?) throws(ServerError) -> PatternFormat? {
    guard let name else { return nil }
    guard let format = PatternFormat(rawValue: name) else {
      throw ServerError(.badRequest, field: "format", "format must be ahap or haptic, not \(name)")
    }
    return format
  }
}

/// The folder of pattern files a server was started with (`--library DIR`): clients name files
/// in it by their path relative to it; nothing outside it is readable, through `..`, an
/// absolute path or a symbolic link.
public struct PatternLibrary: Sendable {
  /// The folder, resolved (symbolic links followed).
  public let root: URL

  /// The library at `folder`.
  ///
  /// - Throws: ``ServerError`` `badRequest` when it is not a readable folder.
  public init(folder: String) throws(ServerError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw ServerError(.badRequest, field: "library", "\(folder) is not a folder")
    }
    root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL
  }

  /// The AHAP and `.haptic` files in the library, by relative path, sorted.
  public var files: [String] {
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
      return []
    }
    let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
    // Named as found (a link by its own name), listed only when what it names is inside.
    return walker.compactMap { $0 as? URL }.filter { PatternFormat(extensionOf: $0.path) != nil }
      .map { $0.standardizedFileURL.path }.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
      .filter { (try? resolve($0)) != nil }.sorted()
  }

  /// The pattern of file `name` (relative to the library).
  ///
  /// - Throws: ``ServerError`` `forbidden` for a name that leaves the library, `notFound` for a
  ///   missing file, `badRequest` for a file that does not read (its first bad entry).
  public func load(_ name: String) throws(ServerError) -> HapticPattern { try document(name).pattern }

  /// File `name` (relative to the library) as read: its pattern and the reader's warnings.
  ///
  /// - Throws: as ``load(_:)``.
  public func document(_ name: String) throws(ServerError) -> AHAPDocument {
    let path = try resolve(name)
    guard FileManager.default.fileExists(atPath: path) else {
      throw ServerError(.notFound, field: "file", "no file \(name) in the library")
    }
    do {
      return try PatternFileReader().read(contentsOf: path)
    } catch {
      let first = error.errors.first
      let path = first?.path ?? ""
      throw ServerError(.badRequest, field: path.isEmpty ? "file" : path, "\(name): \(first.map { "\($0)" } ?? "\(error)")")
    }
  }

  /// The absolute path of `name`, refused when it is not inside the library.
  func resolve(_ name: String) throws(ServerError) -> String {
    let refused = ServerError(.forbidden, field: "file", "\(name) is outside the library")
    guard !name.hasPrefix("/"), !name.contains("\0") else { throw refused }
    let resolved = root.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL.path
    let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
    guard resolved.hasPrefix(prefix) else { throw refused }
    return resolved
  }
}
