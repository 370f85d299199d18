import HapticAHAP
import HapticCore
import FuzzSupport

/// libFuzzer target: the AHAP reader on any bytes. It must never trap; what it reads must be a
/// valid pattern that writes back as AHAP that reads again to the same pattern, and renders
/// (short ones, on an LRA and on an ERM profile) without trapping, and converts to a `.haptic`
/// clip and to Android effects that keep their rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAHAP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  guard let document = try? AHAPReader().read(bytes, file: "fuzz.ahap") else { return 0 }
  let pattern = document.pattern
  if let problem = pattern.problem {
    fatalError("the reader accepted an invalid pattern: \(problem)")
  }
  let written = AHAPWriter().string(pattern)
  let reread: AHAPDocument
  do {
    reread = try AHAPReader().read(string: written, file: "written.ahap")
  } catch {
    fatalError("the written pattern does not read: \(error)\n\(written)")
  }
  guard reread.pattern == pattern else {
    fatalError("the written pattern reads differently:\n\(written)")
  }
  FuzzSupport.render(pattern)
  FuzzSupport.convert(pattern)
  return 0
}
