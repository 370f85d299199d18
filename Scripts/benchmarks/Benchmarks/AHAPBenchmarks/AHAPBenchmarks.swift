import Benchmark
import BenchmarkCorpus
import Foundation
import HapticAHAP
import HapticCore

extension Corpus {
  /// The patterns of the corpus files that read without errors.
  static func patterns(of files: [CorpusFile]) -> [HapticPattern] {
    files.compactMap { try? AHAPReader().read($0.bytes, file: $0.name).pattern }
  }
}

/// The AHAP codec benchmarks. One iteration processes the whole corpus; issue 2's goal is reading
/// it all in at most 10 ms (release build).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
    timeUnits: .microseconds)

  // Files that fail to load stay in: their errors are part of the reader's work.
  Benchmark(
    "Parse whole corpus",
    closure: { benchmark, files in
      let reader = AHAPReader()
      for _ in benchmark.scaledIterations {
        for file in files {
          blackHole(Result { () throws(AHAPError) in try reader.read(file.bytes, file: file.name) })
        }
      }
    },
    setup: { Corpus.files() })

  Benchmark(
    "Write whole corpus",
    closure: { benchmark, patterns in
      let writer = AHAPWriter()
      for _ in benchmark.scaledIterations {
        for pattern in patterns { blackHole(writer.string(pattern)) }
      }
    },
    setup: { Corpus.patterns(of: Corpus.files()) })

  // Read → write → read, over the files that read without errors.
  Benchmark(
    "Round trip whole corpus",
    closure: { benchmark, files in
      let reader = AHAPReader()
      let writer = AHAPWriter()
      for _ in benchmark.scaledIterations {
        for file in files {
          guard let first = try? reader.read(file.bytes, file: file.name) else { continue }
          let text = writer.string(first.pattern)
          blackHole(try? reader.read(string: text, file: file.name))
        }
      }
    },
    setup: { Corpus.files().filter { (try? AHAPReader().read($0.bytes, file: $0.name)) != nil } })
}
