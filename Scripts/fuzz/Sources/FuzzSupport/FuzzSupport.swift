import HapticAHAP
import HapticClip
import HapticCore
import HapticRenderer

/// Checks shared by the pattern fuzz targets (FuzzAHAP, FuzzHaptic).
public enum FuzzSupport {
  /// Renders a short pattern (at most 2 s: rendering is linear in the length) on an LRA and an
  /// ERM profile; it must not trap.
  public static func render(_ pattern: HapticPattern) {
    guard pattern.duration <= 2 else { return }
    for profile in [BoardProfile.simLRA, .simERM] {
      guard var render = try? ChannelRender(pattern: pattern, profile: profile) else { continue }
      while render.next() != nil {}
    }
  }

  /// Converts a short pattern to a `.haptic` clip and to Android effects: the clip must read back
  /// without an error or a warning (Meta's rules hold) and write back to the same bytes; the
  /// Android effects must keep Android's limits.
  public static func convert(_ pattern: HapticPattern) {
    guard pattern.duration <= 2, pattern.events.allSatisfy({ $0.time + ($0.duration ?? 0) <= 2 }) else { return }
    let conversion = HapticClip.converting(pattern)
    let text = HapticClipWriter().bytes(conversion.clip)
    guard let back = try? HapticClipReader().read(text, file: "converted.haptic"), back.warnings.isEmpty else {
      fatalError("the converted clip does not read cleanly:\n\(String(decoding: text, as: UTF8.self))")
    }
    guard HapticClipWriter().bytes(back.clip) == text else { fatalError("the converted clip does not write back the same") }
    guard let effect = try? AndroidEffect(pattern) else { fatalError("a 2 s pattern was refused as an Android effect") }
    guard effect.waveform.timings.allSatisfy({ $0 > 0 }), effect.waveform.amplitudes.allSatisfy({ (0...255).contains($0) }),
      effect.waveform.timings.count == effect.waveform.amplitudes.count
    else { fatalError("a waveform outside Android's limits: \(effect.waveform)") }
    guard effect.envelope.allSatisfy({ (20...1000).contains($0.duration) && (0...1).contains($0.intensity) && (0...1).contains($0.sharpness) }),
      effect.envelope.last.map({ $0.intensity == 0 }) ?? true
    else { fatalError("an envelope outside Android's limits: \(effect.envelope)") }
  }
}
