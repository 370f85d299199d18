import Foundation

/// Board files may spell their keys in snake_case (`f0_hz`, `frame_period_ms`), as `probe
/// --json` and every report the project writes do, or in camelCase (`f0Hz`, the built-in
/// files' spelling): a file copied from `probe --json` loads. Both spellings of one key in one
/// object are an error (which would win is not obvious).
enum BoardFileSpelling {
  /// `data` with every snake_case key renamed to camelCase (`rated_acceleration_g` →
  /// `ratedAccelerationG`), and the problems found (both spellings in one object). `data`
  /// unchanged when it has no snake_case key.
  static func camelCased(_ data: Data) -> (data: Data, problems: [BoardFileError.Problem]) {
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    guard let root = try? decoder.decode(Value.self, from: data) else { return (data, []) }
    var problems: [BoardFileError.Problem] = []
    var renamed = false
    let converted = convert(root, path: "", problems: &problems, renamed: &renamed)
    guard renamed, let output = try? JSONEncoder().encode(converted) else { return (data, problems) }
    return (output, problems)
  }

  /// Any JSON value (numbers kept as integers when they are).
  enum Value: Codable {
    case object([String: Value]), array([Value]), string(String), integer(Int), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Int.self) {
        self = .integer(value)
      } else if let value = try? container.decode(Double.self) {
        self = .number(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else if let value = try? container.decode([Value].self) {
        self = .array(value)
      } else {
        self = .object(try container.decode([String: Value].self))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .object(let value): try container.encode(value)
      case .array(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .integer(let value): try container.encode(value)
      case .number(let value): try container.encode(value)
      case .bool(let value): try container.encode(value)
      case .null: try container.encodeNil()
      }
    }
  }

  /// `key` in camelCase: `f0_hz` → `f0Hz`.
  static func camelCase(_ key: String) -> String {
    let parts = key.split(separator: "_", omittingEmptySubsequences: true)
    guard let first = parts.first, parts.count > 1 else { return key }
    return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  private static func convert(_ value: Value, path: String, problems: inout [BoardFileError.Problem], renamed: inout Bool) -> Value {
    switch value {
    case .object(let object):
      var result: [String: Value] = [:]
      for key in object.keys.sorted() {
        let name = camelCase(key)
        if name != key {
          renamed = true
          if object[name] != nil {
            problems.append(.init(path.isEmpty ? key : "\(path).\(key)", "\(name) is given too (one spelling per key: \(name) or \(key))"))
            continue
          }
        }
        if let child = object[key] {
          result[name] = convert(child, path: path.isEmpty ? name : "\(path).\(name)", problems: &problems, renamed: &renamed)
        }
      }
      return .object(result)
    case .array(let array):
      return .array(array.enumerated().map { index, element in
        convert(element, path: "\(path)[\(index)]", problems: &problems, renamed: &renamed)
      })
    default:
      return value
    }
  }
}
