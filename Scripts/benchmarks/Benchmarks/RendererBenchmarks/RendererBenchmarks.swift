import Benchmark
import BenchmarkCorpus
import Foundation
import HapticAHAP
import HapticCore
import HapticRenderer
import HapticWire

extension Corpus {
  /// The patterns of every corpus file that reads without errors, with their file names.
  static func patterns() -> [(name: String, pattern: HapticPattern)] {
    files().compactMap { file in
      (try? AHAPReader().read(file.bytes, file: file.name).pattern).map { (file.name, $0) }
    }
  }
}

/// Deterministic synthetic patterns for the throughput, scaling and memory benchmarks. Built in
/// the setup closures, outside the measured block.
enum Synthetic {
  /// `count` events, one every 2 ms: every 10th a 5 ms continuous event (attack 0.2, release
  /// 0.2), the rest transients; intensity and sharpness cycle through fixed values. Plus one
  /// intensity-control curve per second of pattern (1 → 0.3 over its first half second).
  static func dense(events count: Int) -> HapticPattern {
    var events: [HapticEvent] = []
    events.reserveCapacity(count)
    for i in 0..<count {
      let t = Double(i) * 0.002
      let intensity = 0.4 + 0.06 * Double(i % 10)
      let sharpness = 0.1 + 0.08 * Double(i % 11)
      if i % 10 == 9 {
        events.append(
          HapticEvent(
            .hapticContinuous, time: t, duration: 0.005,
            parameters: [
              EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
              EventParameter(.attackTime, 0.2), EventParameter(.releaseTime, 0.2),
            ]))
      } else {
        events.append(
          HapticEvent(
            .hapticTransient, time: t,
            parameters: [
              EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
            ]))
      }
    }
    let seconds = Int((Double(count) * 0.002).rounded(.up))
    let curves = (0..<seconds).map { s in
      ParameterCurve(
        .hapticIntensityControl, time: Double(s),
        controlPoints: [.init(time: 0, value: 1), .init(time: 0.5, value: 0.3)])
    }
    return HapticPattern(events: events, curves: curves)
  }

  /// One hour: a 60 ms continuous event every 100 ms (36,000 events) under an intensity
  /// control that swings slowly (one curve per minute, a point every 10 s, period 10 minutes).
  static func hour() -> HapticPattern {
    let events = (0..<36_000).map { i in
      HapticEvent(
        .hapticContinuous, time: Double(i) * 0.1, duration: 0.06,
        parameters: [
          EventParameter(.hapticIntensity, 0.8), EventParameter(.hapticSharpness, 0.5),
          EventParameter(.attackTime, 0.1), EventParameter(.releaseTime, 0.1),
        ])
    }
    let curves = (0..<60).map { minute in
      ParameterCurve(
        .hapticIntensityControl, time: Double(minute) * 60,
        controlPoints: (0...6).map { k in
          let t = Double(minute * 60 + k * 10)
          return .init(time: Double(k * 10), value: 0.6 + 0.4 * sin(2 * Double.pi * t / 600))
        })
    }
    return HapticPattern(events: events, curves: curves)
  }
}

/// Renders `pattern` to frames and segments on channel 0 of `profile`, streaming (nothing kept
/// but a checksum), and returns the statistics; `nil` when the renderer refuses the pattern.
@inline(__always)
func render(_ pattern: HapticPattern, on profile: BoardProfile) -> RenderStats? {
  guard var renderer = try? ChannelRender(pattern: pattern, profile: profile) else { return nil }
  var checksum = 0
  while let (frame, closed) = renderer.next() {
    checksum &+= frame.level &+ frame.frequency
    if let closed { checksum &+= closed.frames }
  }
  if let last = renderer.finish() { checksum &+= last.frames }
  blackHole(checksum)
  return renderer.stats
}

/// Writes one line to standard error (the runner keeps standard output for its tables).
func report(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Renders the corpus once on `profile` and reports the segment-byte ratios: total segment
/// bytes / total naive bytes, and the mean of the per-file ratios (issue goal ≤ 15 %).
func reportSegmentRatio(_ corpus: [(name: String, pattern: HapticPattern)], on profile: BoardProfile) {
  var segmentBytes = 0
  var naiveBytes = 0
  var frames = 0
  var segments = 0
  var ratios: [Double] = []
  var refused: [String] = []
  for (name, pattern) in corpus {
    guard var renderer = try? ChannelRender(pattern: pattern, profile: profile) else {
      refused.append(name)
      continue
    }
    let bytes = SegmentPayload.size(of: renderer.collect().segments, levelBytes: profile.levelBytes)
    let stats = renderer.stats
    segmentBytes += bytes
    naiveBytes += stats.naiveBytes
    frames += stats.frames
    segments += stats.segments
    if stats.naiveBytes > 0 { ratios.append(Double(bytes) / Double(stats.naiveBytes)) }
  }
  let total = naiveBytes > 0 ? Double(segmentBytes) / Double(naiveBytes) : 0
  let mean = ratios.isEmpty ? 0 : ratios.reduce(0, +) / Double(ratios.count)
  report(
    "[\(profile.id)] corpus: \(corpus.count) patterns, \(frames) frames, \(segments) segments; "
      + "segment bytes \(segmentBytes) / naive bytes \(naiveBytes) = "
      + String(format: "%.2f %%", 100 * total)
      + "; mean of per-file ratios " + String(format: "%.2f %%", 100 * mean)
      + (refused.isEmpty ? "" : "; refused: \(refused.joined(separator: ", "))"))
}

/// With `HAPTICCTL_RENDER_CHECK=1`: renders each corpus pattern into memory on `profile` and
/// reports per-file figures plus anything inconsistent (segments that do not tile the frames or
/// expand to other levels, levels out of range, peaks over full scale). Outside timing; off by
/// default.
func checkCorpus(_ corpus: [(name: String, pattern: HapticPattern)], on profile: BoardProfile) {
  guard ProcessInfo.processInfo.environment["HAPTICCTL_RENDER_CHECK"] == "1" else { return }
  for (name, pattern) in corpus {
    guard var renderer = try? ChannelRender(pattern: pattern, profile: profile) else {
      report("  [\(profile.id)] \(name): refused")
      continue
    }
    let (frames, segments) = renderer.collect()
    let stats = renderer.stats
    var problems: [String] = []
    var next = 0
    var worst = 0
    for segment in segments {
      if segment.startFrame != next { problems.append("gap/overlap at frame \(next)") }
      next = segment.endFrame
      for (j, frame) in segment.expanded().enumerated() where segment.startFrame + j < frames.count {
        let original = frames[segment.startFrame + j]
        worst = max(worst, abs(original.level - frame.level), abs(original.frequency - frame.frequency))
      }
    }
    if next != frames.count { problems.append("segments end at \(next), frames at \(frames.count)") }
    if worst > 1 { problems.append("expansion off by \(worst)") }
    if frames.contains(where: { $0.level > profile.maxLevel || $0.level < profile.minLevel }) {
      problems.append("level out of range")
    }
    if stats.peakAmplitude > 1 { problems.append("peak \(stats.peakAmplitude)") }
    if let last = frames.last, last.level != 0 { problems.append("last frame level \(last.level)") }
    let expected = Int((pattern.duration / profile.framePeriod).rounded(.down))
    if frames.count < expected { problems.append("\(frames.count) frames for a \(pattern.duration) s pattern") }
    let bytes = SegmentPayload.size(of: segments, levelBytes: profile.levelBytes)
    let ratio = stats.naiveBytes > 0 ? 100 * Double(bytes) / Double(stats.naiveBytes) : 0
    report(
      "  [\(profile.id)] \(name): \(pattern.events.count) events, \(stats.frames) frames, "
        + "\(stats.segments) segments (\(stats.brakeSegments) brake), "
        + String(format: "ratio %.1f %%, peak %.2f", ratio, stats.peakAmplitude)
        + (problems.isEmpty ? "" : "  PROBLEMS: " + problems.joined(separator: "; ")))
  }
}

/// The renderer benchmarks (issue targets, release build): the whole corpus in ≤ 20 ms per
/// profile, a 1M-event pattern in ≤ 1 s, near-linear scaling from 10k to 1M events, and a
/// one-hour pattern streamed in ≤ 100 MB peak resident memory.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
    timeUnits: .microseconds)

  // One iteration renders every corpus pattern (frames + segments) on one profile. The setup
  // also reports the corpus segment-byte ratio for that profile, outside the measured block.
  for profile in BoardProfile.builtIn {
    Benchmark(
      "Render corpus \(profile.id)",
      closure: { (benchmark: Benchmark, patterns: [HapticPattern]) in
        for _ in benchmark.scaledIterations {
          for pattern in patterns { blackHole(render(pattern, on: profile)) }
        }
      },
      setup: {
        let corpus = Corpus.patterns()
        reportSegmentRatio(corpus, on: profile)
        checkCorpus(corpus, on: profile)
        return corpus.map(\.pattern)
      })
  }

  // Scaling: the same generator at 10k, 100k and 1M events on sim-lra. The 1M run is also the
  // "1M events in ≤ 1 s" target. Divide wall clock by the event count for time per event.
  for (label, count) in [("10k", 10_000), ("100k", 100_000), ("1M", 1_000_000)] {
    Benchmark(
      "Render \(label) events sim-lra",
      configuration: .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds, maxDuration: .seconds(count >= 1_000_000 ? 8 : 4),
        maxIterations: count >= 1_000_000 ? 5 : 100),
      closure: { (benchmark: Benchmark, pattern: HapticPattern) in
        for _ in benchmark.scaledIterations { blackHole(render(pattern, on: .simLRA)) }
      },
      setup: {
        let pattern = Synthetic.dense(events: count)
        if let stats = render(pattern, on: .simLRA) {
          report(
            "[\(label) events] \(pattern.events.count) events, \(stats.frames) frames, "
              + "\(stats.segments) segments, " + String(format: "%.1f s", stats.duration))
        }
        return pattern
      })
  }

  // Memory: one hour streamed on sim-lra, nothing kept but counters. Peak RSS covers the whole
  // process (the pattern built in setup included); the delta excludes what was resident before.
  Benchmark(
    "Render 1 hour streaming sim-lra",
    configuration: .init(
      metrics: [.wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .mallocCountTotal],
      timeUnits: .milliseconds, maxDuration: .seconds(6), maxIterations: 3),
    closure: { (benchmark: Benchmark, pattern: HapticPattern) in
      for _ in benchmark.scaledIterations { blackHole(render(pattern, on: .simLRA)) }
    },
    setup: {
      let pattern = Synthetic.hour()
      if let stats = render(pattern, on: .simLRA) {
        report(
          "[1 hour] \(pattern.events.count) events, \(stats.frames) frames, "
            + "\(stats.segments) segments, \(stats.naiveBytes) naive bytes, "
            + String(format: "%.1f s", stats.duration))
      }
      return pattern
    })
}
