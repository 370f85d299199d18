@testable import HapticAHAP
import HapticCore
import Testing

@Suite("JSON dialect")
struct JSONParserTests {
  private func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
    try JSONParser.parse(Array(text.utf8))
  }

  /// A plain description of a parsed value, built while the document is alive.
  private func shape(_ text: String) throws -> String {
    try parse(text).withRoot { describe($0) }
  }

  private func describe(_ value: JSONValue) -> String {
    switch value.kind {
    case .null: return "null"
    case .bool(let b): return "\(b)"
    case .number(let n): return "\(n)"
    case .string(let s): return "\"\(s)\""
    case .array(let items): return "[" + items.map(describe).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { "\($0.key):\(describe($0.value))" }.joined(separator: ",") + "}"
    }
  }

  private func number(_ text: String) throws -> Double {
    try parse(text).withRoot { root in
      guard case .number(let value) = root.kind else {
        Issue.record("\(text) is not a number")
        return .nan
      }
      return value
    }
  }

  @Test("Numbers parse exactly, fast path and slow path alike", arguments: [
    "0", "-0", "1", "0.1", "0.20000000298023224", "0.422601", "1e-05", "5e-324", "1.7976931348623157e308",
    "123456789012345678901234567890", "0.000001", "-12.5e3", "9007199254740993", "2.2250738585072014E-308",
  ])
  func numbersAreExact(_ text: String) throws {
    let parsed = try number(text)
    let reference = try #require(Double(text))
    #expect(parsed.bitPattern == reference.bitPattern, "\(text)")
  }

  @Test("Minus zero keeps its sign")
  func minusZero() throws {
    #expect(try number("-0.0").sign == .minus)
  }

  @Test("Trailing commas and a byte-order mark are accepted")
  func leniency() throws {
    #expect(try shape("[1, 2, ]") == "[1.0,2.0]")
    #expect(try shape("{\"a\": 1, }") == "{a:1.0}")
    #expect(try shape(#"{"a": [true, null, {"b": "c"}], "a": {}}"#) == #"{a:[true,null,{b:"c"}],a:{}}"#)
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
    #expect(try JSONParser.parse(bom).withRoot { describe($0) } == "{}")
  }

  @Test("Strings decode escapes and surrogate pairs")
  func strings() throws {
    let text = try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#).withRoot { root -> String? in
      if case .string(let text) = root.kind { return text }
      return nil
    }
    #expect(text == "a\"b\\c/d\n\té😀")
  }

  @Test("Malformed input is refused with a position", arguments: [
    ("", 0, "empty"), ("[1,,2]", 3, "two commas"), ("{\"a\" 1}", 5, "':'"), ("[1 2]", 3, "','"),
    ("NaN", 0, "NaN"), ("-Infinity", 0, "Infinity"), ("01", 0, "leading zeros"), ("1.", 0, "after '.'"),
    ("1e", 0, "exponent"), ("\"abc", 0, "unterminated"), ("\"a\u{1}b\"", 2, "control character"),
    ("[1] x", 4, "after the end"), ("// c\n{}", 0, "expected a JSON value"), ("'a'", 0, "expected a JSON value"),
    ("\"\\ud800\"", 1, "surrogate"), ("\"\\x\"", 1, "invalid escape"), ("tru", 0, "'true'"), ("1e400", 0, "too large"),
  ])
  func malformed(_ text: String, _ offset: Int, _ messagePart: String) {
    do {
      _ = try parse(text)
      Issue.record("\(text) parsed but must fail")
    } catch {
      #expect(error.offset == offset, "\(text): \(error.message)")
      #expect(error.message.contains(messagePart), "\(text): \(error.message)")
    }
  }

  @Test("Keys spelled with escapes are recognised")
  func escapedKeys() throws {
    let document = try AHAPReader().read(string: #"{"Pattern": [{"Event": {"\u0054ime": 0.5, "EventType": "Haptic\u0054ransient"}}]}"#)
    #expect(document.warnings.isEmpty)
    #expect(document.pattern.events.first?.time == 0.5)
    #expect(document.pattern.events.first?.type == .hapticTransient)
  }

  @Test("Invalid UTF-8 in a string is refused")
  func invalidUTF8() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
  }

  @Test("Line and column are computed from offsets")
  func lines() {
    let source = SourceLines(Array("ab\ncd\n\nx".utf8))
    #expect(source.location(of: 0) == (1, 1))
    #expect(source.location(of: 4) == (2, 2))
    #expect(source.location(of: 7) == (4, 1))
  }

  @Test("Numbers are written locale-independently in their shortest exact form")
  func numberFormat() {
    #expect(AHAPNumberFormat.string(1) == "1")
    #expect(AHAPNumberFormat.string(0.5) == "0.5")
    #expect(AHAPNumberFormat.string(0.20000000298023224) == "0.20000000298023224")
    #expect(AHAPNumberFormat.string(1e-5) == "1e-05")
    #expect(AHAPNumberFormat.string(1e300) == "1e+300")
  }
}

@Suite("Known strings")
struct KnownStringsTests {
  @Test("Every AHAP key and every model enum spelling is recognised, nothing else")
  func coversTheModel() {
    var expected = AHAPKey.allCases.map(\.name)
    expected += HapticEventType.allCases.map(\.rawValue)
    expected += EventParameterID.allCases.map(\.rawValue)
    expected += DynamicParameterID.allCases.map(\.rawValue)
    for name in expected {
      let index = Array(name.utf8).withUnsafeBufferPointer { KnownStrings.lookup($0) }
      #expect(index.map { KnownStrings.all[$0] } == name, "\(name)")
    }
    for key in AHAPKey.allCases {
      #expect(KnownStrings.all[key.rawValue] == key.name)
    }
    for other in ["Timer", "time", "EventTypes", "HapticIntensityControls", "Sharpness", ""] {
      #expect(Array(other.utf8).withUnsafeBufferPointer { KnownStrings.lookup($0) } == nil, "\(other)")
    }
  }
}
