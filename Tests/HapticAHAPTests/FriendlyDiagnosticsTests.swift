import HapticAHAP
import Testing

/// What the reader tells someone whose file is nearly right (issue 32 point 6): the name they
/// meant, that JSON has no comments, a column that matches their editor.
@Suite struct FriendlyDiagnosticsTests {
  func errors(_ text: String) -> [AHAPDiagnostic] {
    do {
      _ = try AHAPReader().read(string: text)
      return []
    } catch {
      return error.errors
    }
  }

  func warnings(_ text: String) throws -> [AHAPDiagnostic] {
    try AHAPReader().read(string: text).warnings
  }

  @Test("A misspelt parameter, event type or key is answered with the name it is closest to")
  func didYouMean() throws {
    let parameter = errors(
      #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensty","ParameterValue":1}]}}]}"#)
    #expect(parameter.first?.message.contains("(did you mean HapticIntensity?)") == true, "\(parameter)")
    let type = errors(#"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransiant"}}]}"#)
    #expect(type.first?.message.contains("(did you mean HapticTransient?)") == true, "\(type)")
    let dynamic = errors(#"{"Pattern":[{"Parameter":{"ParameterID":"hapticintensitycontrol","Time":0,"ParameterValue":1}}]}"#)
    #expect(dynamic.first?.message.contains("(did you mean HapticIntensityControl?)") == true, "\(dynamic)")
    let key = try warnings(#"{"Pattern":[{"Event":{"Tme":0,"EventType":"HapticTransient"}}]}"#)
    #expect(key.contains { $0.message.contains("unknown key \"Tme\" in an Event (did you mean Time?)") }, "\(key)")
    // Nothing close: no guess.
    let far = errors(
      #"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"Loudness","ParameterValue":1}]}}]}"#)
    #expect(far.first.map { !$0.message.contains("did you mean") } == true, "\(far)")
  }

  @Test("A comment is named as one: JSON has none")
  func comments() {
    for text in ["// a tap\n{\"Pattern\":[]}", "{\"Pattern\":[ /* none */ ]}"] {
      let found = errors(text)
      #expect(found.first?.message.contains("a comment (JSON has no comments: remove them)") == true, "\(found)")
    }
  }

  @Test("A byte-order mark is not a column, nor is each byte of a multi-byte character")
  func columns() {
    let bom = errors("\u{FEFF}{\"Pattern\":[ x ]}")
    #expect(bom.first?.line == 1 && bom.first?.column == 14, "\(bom)")
    let accented = errors("{\"Métadonnées\": x}")
    #expect(accented.first?.column == 17, "\(accented)")
  }
}
