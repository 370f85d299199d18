import Foundation
import HapticRenderer
import HapticSimulator

/// `hapticctl characterize` output: a table for people, JSON for tools, an SVG plot.
struct CharacterizationReport {
  let profile: BoardProfile
  let maps: [ChannelResponseMap]

  private func n(_ value: Double?, _ digits: Int) -> String {
    guard let value, value.isFinite else { return value == -.infinity ? "-inf" : "-" }
    return Decimal6.string(value, digits: digits)
  }

  /// The human-readable report.
  func table() -> String {
    var text = "\(profile.id): \(profile.name)\n"
    for map in maps {
      text += "\nchannel \(map.channel): \(map.kind.rawValue), \(n(map.resonantFrequency, 0)) Hz"
      if let band = map.sharpnessBand {
        text += ", sharpness band \(band.lowerBound)–\(band.upperBound) Hz"
      } else {
        text += ", amplitude only (sharpness sets crispness)"
      }
      text += "\n\nsteady acceleration (G) by intensity, one column per sharpness\n"
      text += "intensity" + map.sweeps.map { pad("s=\(n($0.sharpness, 2))", 9) }.joined() + "\n"
      for (row, intensity) in BoardCharacterization.intensities.enumerated() {
        text += pad(n(intensity, 2), 9, left: true)
        text += map.sweeps.map { pad(n($0.points[row].steady, 4), 9) }.joined() + "\n"
      }
      text += "\n" + pad("", 24, left: true) + map.sweeps.map { pad("s=\(n($0.sharpness, 2))", 9) }.joined() + "\n"
      func line(_ label: String, _ values: (ChannelResponseMap.SharpnessSweep) -> String) {
        text += pad(label, 24, left: true) + map.sweeps.map { pad(values($0), 9) }.joined() + "\n"
      }
      line("drive frequency (Hz)") { n($0.frequency, 0) }
      line("steps (2.5 dB)") { String($0.distinguishableSteps) }
      line("smallest step (dB)") { n($0.smallestStepDecibels, 2) }
      line("smallest +0.1 (dB)") { n($0.smallestTenthStepDecibels, 2) }
      line("0.9 → 1.0 (dB)") { n($0.lastTenthDecibels, 2) }
      line("lowest felt intensity") { n($0.lowestFeltIntensity, 2) }
      line("overshoot at 0.5") { n($0.point(at: 0.5)?.overshoot, 2) }
      line("overshoot at 1") { n($0.point(at: 1)?.overshoot, 2) }
      line("rise to 90 % at 1 (ms)") { n($0.points.last?.riseMilliseconds, 1) }
      line("  in cycles of f0") { n(map.riseCycles($0), 2) }
      line("stop at 1 (ms)") { n($0.points.last?.stopMilliseconds, 1) }
      line("stop at 0.5 (ms)") { n($0.point(at: 0.5)?.stopMilliseconds, 1) }
      text += "\nintensity 1 by sharpness (G, × the strongest)\n"
      for point in map.fullIntensity {
        text += "  s=\(n(point.sharpness, 3)) \(n(point.frequency, 0)) Hz: \(n(point.steady, 3)) G = "
        text += "\(n(map.fractionOfStrongest(at: point.sharpness), 2)) ×\n"
      }
      let clip = map.clipMiddle
      text += "  .haptic frequency 0.5 (s=\(n(clip.sharpness, 3))) \(n(clip.frequency, 0)) Hz: \(n(clip.steady, 3)) G = "
      text += "\(n(map.strongest > 0 ? clip.steady / map.strongest : nil, 2)) ×\n"
      text += "loudness tilt at intensity 1: \(n(map.tiltDecibels, 1)) dB\n"
      text += "\nlone transient (intensity 1)\n"
      for figures in map.transients {
        text += "  sharpness \(n(figures.sharpness, 1)): peak \(n(figures.peak, 3)) G, rise "
        text += "\(n(figures.riseMilliseconds, 1)) ms, stop \(n(figures.stopMilliseconds, 1)) ms, "
        text += "above 10 % \(n(figures.aboveTenthMilliseconds, 0)) ms, 5 ms windows "
        text += figures.windows.map { n($0, 3) }.joined(separator: " ") + " G\n"
      }
      text += "transient (1, 1) over a continuous event (0.6, s)\n"
      for mix in map.transientOverContinuous {
        text += "  s = \(n(mix.continuousSharpness, 1)): peak \(n(mix.peak, 3)) G = "
        text += "\(n(mix.ratio * 100, 0)) % of the transient alone (\(n(mix.alonePeak, 3)) G)\n"
      }
    }
    return text
  }

  private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + fill : fill + text
  }

  /// One object: `board`, `channels` (each with its sweeps, transients and figures).
  func json() -> JSONText {
    func number(_ value: Double?, _ digits: Int = 4) -> JSONText {
      guard let value, value.isFinite else { return .null }
      return .fixed(value, digits: digits)
    }
    func point(_ point: ChannelResponseMap.FullIntensityPoint) -> JSONText {
      .object([
        ("sharpness", number(point.sharpness, 3)), ("frequency_hz", number(point.frequency, 0)),
        ("steady_g", number(point.steady)),
      ])
    }
    let channels = maps.map { map -> JSONText in
      let sweeps = map.sweeps.map { sweep -> JSONText in
        .object([
          ("sharpness", number(sweep.sharpness, 2)), ("frequency_hz", number(sweep.frequency, 0)),
          ("intensity", .array(sweep.points.map { number($0.intensity, 2) })),
          ("steady_g", .array(sweep.points.map { number($0.steady) })),
          ("peak_g", .array(sweep.points.map { number($0.peak) })),
          ("distinguishable_steps", .int(sweep.distinguishableSteps)),
          ("smallest_step_db", number(sweep.smallestStepDecibels, 2)),
          ("smallest_tenth_step_db", number(sweep.smallestTenthStepDecibels, 2)),
          ("top_tenth_db", number(sweep.lastTenthDecibels, 2)),
          ("lowest_felt_intensity", number(sweep.lowestFeltIntensity, 2)),
          ("overshoot_at_half", number(sweep.point(at: 0.5)?.overshoot, 3)),
          ("overshoot_at_full", number(sweep.point(at: 1)?.overshoot, 3)),
          ("rise_ms_at_full", number(sweep.points.last?.riseMilliseconds, 2)),
          ("stop_ms_at_full", number(sweep.points.last?.stopMilliseconds, 2)),
          ("stop_ms_at_half", number(sweep.point(at: 0.5)?.stopMilliseconds, 2)),
        ])
      }
      let transients = map.transients.map { figures -> JSONText in
        .object([
          ("sharpness", number(figures.sharpness, 2)), ("peak_g", number(figures.peak)),
          ("rise_ms", number(figures.riseMilliseconds, 2)), ("stop_ms", number(figures.stopMilliseconds, 2)),
          ("above_tenth_ms", number(figures.aboveTenthMilliseconds, 0)),
          ("windows_g", .array(figures.windows.map { number($0) })),
        ])
      }
      let mixes = map.transientOverContinuous.map { mix -> JSONText in
        .object([
          ("continuous_sharpness", number(mix.continuousSharpness, 2)), ("peak_g", number(mix.peak)),
          ("alone_peak_g", number(mix.alonePeak)), ("ratio", number(mix.ratio, 3)),
        ])
      }
      return .object([
        ("channel", .int(map.channel)), ("kind", .string(map.kind.rawValue)),
        ("resonant_frequency_hz", number(map.resonantFrequency, 1)),
        ("sharpness_band_hz", map.sharpnessBand.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null),
        ("detection_threshold_g", number(ChannelResponseMap.detectionThreshold, 3)),
        ("tilt_db", number(map.tiltDecibels, 2)), ("sweeps", .array(sweeps)),
        ("full_intensity", .array(map.fullIntensity.map(point))), ("clip_middle", point(map.clipMiddle)),
        ("transients", .array(transients)), ("transient_over_continuous", .array(mixes)),
      ])
    }
    return .object([("board", .string(profile.id)), ("name", .string(profile.name)), ("channels", .array(channels))])
  }
}
