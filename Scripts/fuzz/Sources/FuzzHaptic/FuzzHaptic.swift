import HapticAHAP
import HapticClip
import HapticCore
import FuzzSupport

/// libFuzzer target: the `.haptic` reader on any bytes (v1, and v0 upgraded). It must never
/// trap; a clip it accepts must follow the format's rules, map to a valid pattern, write as AHAP
/// both ways (plain and Lofelt-style) that reads again and as a `.haptic` file that reads back to
/// the same clip, and (short ones) render, convert back to a clip and to Android effects without
/// trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHaptic(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  guard let document = try? HapticClipReader().read(bytes, file: "fuzz.haptic") else { return 0 }
  let clip = document.clip
  guard !clip.amplitude.isEmpty else { fatalError("the reader accepted an empty amplitude envelope") }
  for (previous, next) in zip(clip.amplitude, clip.amplitude.dropFirst()) where next.time < previous.time {
    fatalError("the reader accepted times going back: \(previous.time) then \(next.time)")
  }
  let pattern = clip.pattern()
  if let problem = pattern.problem { fatalError("the clip maps to an invalid pattern: \(problem)") }
  let plain = AHAPWriter().string(pattern)
  // AHAP cannot say that the intensity control spares transients (a clip's emphases), nor that
  // intensities are √ of amplitudes (the clip's law, docs/semantics.md §17).
  guard var reread = try? AHAPReader().read(string: plain, file: "plain.ahap").pattern else {
    fatalError("the plain AHAP does not read:\n\(plain)")
  }
  reread.intensityControlScope = pattern.intensityControlScope
  reread.intensityLaw = pattern.intensityLaw
  guard reread == pattern else { fatalError("the plain AHAP does not read back as the pattern:\n\(plain)") }
  // Written as a .haptic file (a v0 clip upgraded), it reads back to the same clip.
  let text = HapticClipWriter().bytes(clip)
  // A warning of the clip's own (a frequency envelope past the end) may stay; no new one.
  let known = Set(document.warnings.map(\.message))
  guard let back = try? HapticClipReader().read(text, file: "written.haptic"), back.clip == clip,
    back.warnings.allSatisfy({ known.contains($0.message) })
  else {
    fatalError("the written clip does not read back as the clip:\n\(String(decoding: text, as: UTF8.self))")
  }
  let lofelt = LofeltAHAPWriter().bytes(clip)
  do {
    _ = try AHAPReader(options: AHAPReadOptions(controlPointTimes: .absolute)).read(lofelt, file: "lofelt.ahap")
  } catch {
    fatalError("the Lofelt-style AHAP does not read: \(error)\n\(String(decoding: lofelt, as: UTF8.self))")
  }
  FuzzSupport.render(pattern)
  FuzzSupport.convert(pattern)
  return 0
}
