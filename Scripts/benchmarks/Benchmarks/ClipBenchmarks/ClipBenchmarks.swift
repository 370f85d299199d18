import Benchmark
import BenchmarkCorpus
import Foundation
import HapticAHAP
import HapticClip
import HapticCore

/// The `.haptic` codec benchmarks. One iteration processes a whole shared corpus (`.haptic`, or
/// AHAP for the other direction); issue 17's goal is converting the `.haptic` corpus in at most
/// 20 ms (release build).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
    timeUnits: .microseconds)

  // Invalid fixtures stay in: their diagnostics are part of the reader's work.
  Benchmark(
    "Read whole .haptic corpus",
    closure: { benchmark, files in
      let reader = HapticClipReader()
      for _ in benchmark.scaledIterations {
        for file in files {
          blackHole(Result { () throws(AHAPError) in try reader.read(file.bytes, file: file.name) })
        }
      }
    },
    setup: { Corpus.hapticFiles() })

  // What `hapticctl convert` does per file: read, map to a pattern, write plain and
  // Lofelt-style AHAP.
  Benchmark(
    "Convert whole .haptic corpus to AHAP (plain and Lofelt)",
    closure: { benchmark, files in
      let reader = HapticClipReader()
      let plain = AHAPWriter()
      let lofelt = LofeltAHAPWriter()
      for _ in benchmark.scaledIterations {
        for file in files {
          guard let document = try? reader.read(file.bytes, file: file.name) else { continue }
          blackHole(plain.bytes(document.clip.pattern()))
          blackHole(lofelt.bytes(document.clip))
        }
      }
    },
    setup: { Corpus.hapticFiles() })

  // AHAP → .haptic (issue 17's other direction): read each AHAP file, trace it into a clip and
  // write the clip; the lossy files (audio, overlaps) included.
  Benchmark(
    "Convert whole AHAP corpus to .haptic",
    closure: { benchmark, files in
      let reader = AHAPReader()
      let writer = HapticClipWriter()
      for _ in benchmark.scaledIterations {
        for file in files {
          guard let document = try? reader.read(file.bytes, file: file.name) else { continue }
          blackHole(writer.bytes(HapticClip.converting(document.pattern).clip))
        }
      }
    },
    setup: { Corpus.files() })

  // → Android: both forms, as JSON.
  Benchmark(
    "Convert whole AHAP corpus to Android waveform and envelope",
    closure: { benchmark, files in
      let reader = AHAPReader()
      for _ in benchmark.scaledIterations {
        for file in files {
          guard let document = try? reader.read(file.bytes, file: file.name) else { continue }
          guard let effect = try? AndroidEffect(document.pattern) else { continue }
          blackHole(effect.json(.waveform))
          blackHole(effect.json(.envelope))
        }
      }
    },
    setup: { Corpus.files() })
}
