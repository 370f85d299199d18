@testable import HapticAHAP
import Testing

@Suite("JSON dialect")
struct JSONParserTests {
  private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
  }

  private func number(_ text: String) throws -> Double {
    guard case .number(let value) = try parse(text).kind else {
      Issue.record("\(text) is not a number")
      return .nan
    }
    return value
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
    guard case .array(let items) = try parse("[1, 2, ]").kind else { throw CancellationError() }
    #expect(items.count == 2)
    guard case .object(let members) = try parse("{\"a\": 1, }").kind else { throw CancellationError() }
    #expect(members.map(\.key) == ["a"])
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
    guard case .object = try JSONParser.parse(bom).kind else { throw CancellationError() }
  }

  @Test("Strings decode escapes and surrogate pairs")
  func strings() throws {
    guard case .string(let text) = try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#).kind else {
      throw CancellationError()
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
