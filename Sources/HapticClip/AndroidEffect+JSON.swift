import HapticAHAP

extension AndroidEffect {
  /// The two forms `hapticctl convert` writes.
  public enum Form: String, Sendable, CaseIterable {
    /// `VibrationEffect.createWaveform(timings, amplitudes, -1)` (API 26+).
    case waveform = "android-waveform"
    /// `VibrationEffect.BasicEnvelopeBuilder` (Android 16, API 36).
    case envelope = "android-envelope"
  }

  /// The notes of `form`.
  public func notes(_ form: Form) -> [ClipConversion.Note] {
    form == .waveform ? waveformNotes : envelopeNotes
  }

  /// `form` as JSON a developer pastes into an app: the arrays or control points, and a
  /// `kotlin` line that builds the effect. Deterministic; two-space indentation.
  public func json(_ form: Form) -> [UInt8] {
    var out = JSONTextBuilder(indentWidth: 2, spaceBeforeColon: false)
    out.openObject()
    out.key("format")
    out.string(form.rawValue)
    switch form {
    case .waveform:
      out.key("api")
      out.string("VibrationEffect.createWaveform(timings, amplitudes, -1), API 26; amplitudes need hasAmplitudeControl()")
      out.key("duration_ms")
      out.number(Double(waveform.timings.reduce(0, +)))
      out.key("timings")
      out.openArray()
      for timing in waveform.timings { out.number(Double(timing)) }
      out.closeArray()
      out.key("amplitudes")
      out.openArray()
      for amplitude in waveform.amplitudes { out.number(Double(amplitude)) }
      out.closeArray()
      out.key("kotlin")
      out.string(
        "VibrationEffect.createWaveform(longArrayOf(\(waveform.timings.map(String.init).joined(separator: ", "))), "
          + "intArrayOf(\(waveform.amplitudes.map(String.init).joined(separator: ", "))), -1)")
    case .envelope:
      out.key("api")
      out.string("VibrationEffect.BasicEnvelopeBuilder, API 36; check Vibrator.areEnvelopeEffectsSupported()")
      out.key("duration_ms")
      out.number(Double(envelope.reduce(0) { $0 + $1.duration }))
      out.key("initial_sharpness")
      out.number(Self.rounded(initialSharpness))
      out.key("control_points")
      out.openArray()
      for point in envelope {
        out.openObject()
        out.key("intensity")
        out.number(Self.rounded(point.intensity))
        out.key("sharpness")
        out.number(Self.rounded(point.sharpness))
        out.key("duration_ms")
        out.number(Double(point.duration))
        out.closeObject()
      }
      out.closeArray()
      out.key("kotlin")
      let points = envelope.map { ".addControlPoint(\(Self.float($0.intensity)), \(Self.float($0.sharpness)), \($0.duration)L)" }
      out.string(
        "VibrationEffect.BasicEnvelopeBuilder().setInitialSharpness(\(Self.float(initialSharpness)))\(points.joined()).build()")
    }
    out.closeObject()
    return out.finish()
  }

  /// A value to 4 decimals (a 0…1 control; finer is not felt).
  static func rounded(_ value: Double) -> Double {
    (value * 10_000).rounded() / 10_000
  }

  /// A Kotlin `Float` literal.
  static func float(_ value: Double) -> String {
    "\(AHAPNumberFormat.string(rounded(value)))f"
  }
}
