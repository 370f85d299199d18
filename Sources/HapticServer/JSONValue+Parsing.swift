import HapticAHAP

/// Request bodies and WebSocket messages parsed with the AHAP reader's JSON parser, not
/// Foundation's `JSONDecoder`: a `parameters` message 60 times a second from each of 8 clients
/// spent about a tenth of the server's CPU in `JSONDecoder` (its generic `Decodable` walk of
/// `[String: JSONValue]`); the tape parser builds the same value directly, and its errors name
/// the line and column.
extension JSONValue {
  /// Parses one JSON document (RFC 8259; trailing commas in arrays and objects are accepted, as
  /// in AHAP files; nesting deeper than 512 is refused, as `JSONDecoder` did). Throws a refusal
  /// of `field` that says where and what was wrong, as "`what` is not JSON (line 1, column 9:
  /// …)".
  static func parse(_ bytes: [UInt8], field: String, what: String) throws(ServerError) -> JSONValue {
    let document: JSONDocument
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      let (line, column) = SourceLines(bytes).location(of: error.offset)
      throw ServerError(.badRequest, field: field, "\(what) is not JSON (line \(line), column \(column): \(error.message))")
    }
    return document.withRoot { JSONValue(converting: $0) }
  }

  private init(converting value: HapticAHAP.JSONValue) {
    switch value.kind {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let number): self = .number(number)
    case .string(let text): self = .string(text)
    case .array(let items): self = .array(items.map { JSONValue(converting: $0) })
    case .object(let members):
      var object: [String: JSONValue] = [:]
      object.reserveCapacity(members.count)
      // A repeated key: the last one counts (as JSONDecoder had it).
      for index in members.indices { object[members.key(at: index)] = JSONValue(converting: members.value(at: index)) }
      self = .object(object)
    }
  }
}
