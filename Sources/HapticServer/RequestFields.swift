import Foundation

/// The fields of a request: a JSON object body, a WebSocket message or a query string, read
/// with the field named in every refusal (`rate must be a number from 1/64 to 64`), unknown
/// fields refused.
struct RequestFields {
  /// The values (a query's are strings).
  private let values: [String: JSONValue]
  /// Query strings carry every value as text.
  private let fromQuery: Bool

  /// The fields of a JSON object `bytes` (no bytes: none; whitespace alone is not JSON), of
  /// which only `allowed` may appear.
  init(json bytes: [UInt8], allowed: Set<String>) throws(ServerError) {
    if bytes.isEmpty {
      self.init(values: [:], fromQuery: false)
      return
    }
    guard case .object(let values) = try JSONValue.parse(bytes, field: "body", what: "the body") else {
      throw ServerError(.badRequest, field: "body", "the body must be a JSON object")
    }
    try self.init(object: values, allowed: allowed)
  }

  /// The fields of a decoded JSON object, of which only `allowed` may appear.
  init(object: [String: JSONValue], allowed: Set<String>) throws(ServerError) {
    try Self.refuseUnknown(object.keys, allowed: allowed)
    self.init(values: object, fromQuery: false)
  }

  /// The fields of a query (`?rate=0.5&loop=true`), of which only `allowed` may appear.
  init(query: [(key: String, value: String)], allowed: Set<String>) throws(ServerError) {
    var values: [String: JSONValue] = [:]
    // `access_token` is the token's (``TokenMiddleware``), not the request's.
    for (key, value) in query where key != "access_token" {
      if values[key] != nil { throw ServerError(.badRequest, field: key, "\(key) is given twice") }
      values[key] = .string(value)
    }
    try Self.refuseUnknown(values.keys, allowed: allowed)
    self.init(values: values, fromQuery: true)
  }

  private init(values: [String: JSONValue], fromQuery: Bool) {
    self.values = values
    self.fromQuery = fromQuery
  }

  private static func refuseUnknown(_ keys: some Sequence<String>, allowed: Set<String>) throws(ServerError) {
    if let unknown = keys.filter({ !allowed.contains($0) }).sorted().first {
      throw ServerError(
        .badRequest, field: unknown, "unknown field \(unknown) (known: \(allowed.sorted().joined(separator: ", ")))")
    }
  }

  /// Whether `key` is present.
  func has(_ key: String) -> Bool { values[key] != nil }

  /// A finite number in `range`, or nil when absent.
  func number(_ key: String, in range: ClosedRange<Double>, meaning: String) throws(ServerError) -> Double? {
    guard let raw = values[key] else { return nil }
    let value: Double?
    switch raw {
    case .number(let number): value = number
    case .string(let text) where fromQuery: value = Double(text)
    default: value = nil
    }
    guard let value, value.isFinite, range.contains(value) else {
      throw ServerError(.badRequest, field: key, "\(key) must be \(meaning), not \(Self.show(raw))")
    }
    return value
  }

  /// A whole number in `range`, or nil when absent.
  func integer(_ key: String, in range: ClosedRange<Int>, meaning: String) throws(ServerError) -> Int? {
    guard let value = try number(key, in: Double(range.lowerBound)...Double(range.upperBound), meaning: meaning) else {
      return nil
    }
    guard let whole = Int(exactly: value) else {
      throw ServerError(.badRequest, field: key, "\(key) must be \(meaning), not \(Self.show(values[key] ?? .null))")
    }
    return whole
  }

  /// A boolean, or nil when absent.
  func bool(_ key: String) throws(ServerError) -> Bool? {
    guard let raw = values[key] else { return nil }
    if case .bool(let value) = raw { return value }
    if fromQuery, case .string(let text) = raw, let value = ["true": true, "false": false][text] { return value }
    throw ServerError(.badRequest, field: key, "\(key) must be true or false, not \(Self.show(raw))")
  }

  /// A non-empty string, or nil when absent.
  func string(_ key: String) throws(ServerError) -> String? {
    guard let raw = values[key] else { return nil }
    guard case .string(let text) = raw, !text.isEmpty else {
      throw ServerError(.badRequest, field: key, "\(key) must be a non-empty string, not \(Self.show(raw))")
    }
    return text
  }

  /// Channel numbers (`[0, 1]`, or `0,1` in a query), each in `0..<count`, without repeats.
  func channels(_ key: String, count: Int) throws(ServerError) -> [Int]? {
    guard let raw = values[key] else { return nil }
    let items: [Int?]
    switch raw {
    case .string(let text) where fromQuery: items = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    case .array(let list): items = list.map { if case .number(let n) = $0 { Int(exactly: n) } else { nil } }
    default: items = []
    }
    let numbers = items.compactMap { $0 }
    guard !items.isEmpty, numbers.count == items.count, numbers.allSatisfy({ (0..<count).contains($0) }),
      Set(numbers).count == numbers.count
    else {
      throw ServerError(
        .badRequest, field: key, "\(key) must list distinct channels from 0 to \(count - 1), not \(Self.show(raw))")
    }
    return numbers.sorted()
  }

  /// A value as a client wrote it (shortened), for a message.
  static func show(_ raw: JSONValue) -> String {
    let text = raw.jsonText
    return text.count > 60 ? "\(text.prefix(57))..." : text
  }
}
