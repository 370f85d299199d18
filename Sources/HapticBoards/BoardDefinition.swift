public import Foundation
import HapticAHAP
public import HapticRenderer

/// A validated board: its file, the renderer profile it implies and where it came from.
public struct BoardDefinition: Sendable, Hashable {
  /// The board file's contents.
  public let file: BoardFile
  /// The profile the renderer targets.
  public let profile: BoardProfile
  /// The file's path, or nil for a built-in board.
  public let path: String?

  /// The board id.
  public var id: String { file.id }
  /// True for boards compiled into hapticctl.
  public var isBuiltIn: Bool { path == nil }

  /// Parses and validates a board file's bytes.
  ///
  /// - Parameters:
  ///   - data: the JSON text (JSON5 extensions such as trailing commas are accepted).
  ///   - path: the file, for messages and for resolving the firmware folder.
  public static func parse(_ data: Data, path: String?) throws(BoardFileError) -> BoardDefinition {
    // Syntax first with hapticctl's own parser, which says where (line:column); it accepts
    // trailing commas like Foundation's JSON5 mode but reports positions.
    let bytes = [UInt8](data)
    let isObject: Bool
    do {
      isObject = try JSONParser.parse(bytes, maxDepth: 64).withRoot { root in
        if case .object = root.kind { return true } else { return false }
      }
    } catch {
      let (line, column) = SourceLines(bytes).location(of: error.offset)
      throw BoardFileError(file: path, problems: [.init("", "not valid JSON at line \(line), column \(column): \(error.message)")])
    }
    // Decided here, before Foundation sees the text: swift-foundation's JSON5 scanner traps
    // (JSON5Scanner.validateNumber, "Illegal instruction") on a top-level number after
    // whitespace, e.g. " 4444.444444444444444444" — found by the board-file fuzz target, and
    // reproduced with JSONDecoder alone (allowsJSON5, decoding a Double; without JSON5, or
    // inside an object, it decodes). A board file is an object, so nothing is lost.
    guard isObject else {
      throw BoardFileError(file: path, problems: [.init("", "a board file is one JSON object")])
    }
    // snake_case keys as their camelCase spelling (BoardFileSpelling).
    let (data, spellingProblems) = BoardFileSpelling.camelCased(data)
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let shape: JSONShape
    do {
      shape = try decoder.decode(JSONShape.self, from: data)
    } catch {
      throw BoardFileError(file: path, problems: [.init("", "not valid JSON: \(Self.reason(error))")])
    }
    guard case .object(let root) = shape else {
      throw BoardFileError(file: path, problems: [.init("", "a board file is one JSON object")])
    }
    var problems = spellingProblems + unknownKeys(in: root, section: "", path: "")
    let file: BoardFile
    do {
      file = try decoder.decode(BoardFile.self, from: data)
    } catch let error as DecodingError {
      problems.append(problem(error))
      throw BoardFileError(file: path, problems: problems)
    } catch {
      throw BoardFileError(file: path, problems: problems + [.init("", Self.reason(error))])
    }
    problems += BoardValidation.problems(file)
    guard problems.isEmpty else { throw BoardFileError(file: path, problems: problems) }
    return BoardDefinition(file: file, profile: BoardValidation.profile(file), path: path)
  }

  /// Reads and parses the board file at `path`.
  public static func load(_ path: String) throws(BoardFileError) -> BoardDefinition {
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw BoardFileError(file: path, problems: [.init("", exists ? "cannot read the file" : "no such file")])
    }
    return try parse(data, path: path)
  }

  /// The folder the firmware's `source` is relative to: the board file's folder.
  public var directory: String? {
    path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
  }

  private static func reason(_ error: any Error) -> String {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return text ?? error.localizedDescription
  }

  private static func unknownKeys(in object: [String: JSONShape], section: String, path: String) -> [BoardFileError.Problem] {
    var problems: [BoardFileError.Problem] = []
    let known = BoardFile.knownKeys[section] ?? []
    for key in object.keys.sorted() {
      let keyPath = path.isEmpty ? key : "\(path).\(key)"
      guard known.contains(key) else {
        problems.append(.init(keyPath, "unknown field (known: \(known.sorted().joined(separator: ", ")))"))
        continue
      }
      guard BoardFile.knownKeys[key] != nil, section.isEmpty else { continue }
      switch object[key] {
      case .object(let child)?:
        problems += unknownKeys(in: child, section: key, path: keyPath)
      case .array(let list)?:
        for (index, element) in list.enumerated() {
          if case .object(let child) = element {
            problems += unknownKeys(in: child, section: key, path: "\(keyPath)[\(index)]")
          }
        }
      default:
        break
      }
    }
    return problems
  }

  private static func problem(_ error: DecodingError) -> BoardFileError.Problem {
    func render(_ path: [any CodingKey]) -> String {
      var text = ""
      for key in path {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return text
    }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = render(context.codingPath)
      return .init(parent.isEmpty ? key.stringValue : "\(parent).\(key.stringValue)", "missing")
    case .typeMismatch(let type, let context):
      return .init(render(context.codingPath), "expected \(describe(type))")
    case .valueNotFound(let type, let context):
      return .init(render(context.codingPath), "expected \(describe(type)), found null")
    case .dataCorrupted(let context):
      return .init(render(context.codingPath), context.debugDescription)
    @unknown default:
      return .init("", "\(error)")
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type: return "an integer"
    case is Double.Type: return "a number"
    case is Bool.Type: return "true or false"
    default:
      let name = String(describing: type)
      return name.hasPrefix("Array") ? "a list" : name.hasPrefix("Dictionary") || name.contains("Board") ? "an object" : name
    }
  }
}

/// Just enough of a JSON value's shape to find unknown keys.
enum JSONShape: Decodable {
  case object([String: JSONShape])
  case array([JSONShape])
  case scalar

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let object = try? container.decode([String: JSONShape].self) {
      self = .object(object)
    } else if let array = try? container.decode([JSONShape].self) {
      self = .array(array)
    } else {
      self = .scalar
    }
  }
}
