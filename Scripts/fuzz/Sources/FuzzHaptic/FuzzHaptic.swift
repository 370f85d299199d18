import HapticAHAP
import HapticClip
import HapticCore
import HapticRenderer

/// libFuzzer target: the `.haptic` reader on any bytes. It must never trap; a clip it accepts
/// must follow the format's rules, map to a valid pattern, write as AHAP both ways (plain and
/// Lofelt-style) that reads again, and render (short ones) without trapping.
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
  guard let reread = try? AHAPReader().read(string: plain, file: "plain.ahap"), reread.pattern == pattern else {
    fatalError("the plain AHAP does not read back as the pattern:\n\(plain)")
  }
  let lofelt = LofeltAHAPWriter().bytes(clip)
  do {
    _ = try AHAPReader(options: AHAPReadOptions(controlPointTimes: .absolute)).read(lofelt, file: "lofelt.ahap")
  } catch {
    fatalError("the Lofelt-style AHAP does not read: \(error)\n\(String(decoding: lofelt, as: UTF8.self))")
  }
  guard pattern.duration <= 2 else { return 0 }
  for profile in [BoardProfile.simLRA, .simERM] {
    guard var render = try? ChannelRender(pattern: pattern, profile: profile) else { continue }
    while render.next() != nil {}
  }
  return 0
}
