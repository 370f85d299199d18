import Benchmark
import Foundation
import HapticAHAP
import HapticCore

/// One AHAP file held in memory.
struct CorpusFile: Sendable {
  /// The file name, used in diagnostics.
  var name: String
  /// The file's bytes.
  var bytes: [UInt8]
}

/// The AHAP corpus: every `*.ahap` in `shared/corpus/ahap` beside the repository checkout, or in
/// the folder named by `HAPTICCTL_CORPUS`. Loaded once per benchmark, outside the measured block.
enum Corpus {
  /// The corpus folder: `$HAPTICCTL_CORPUS`, else `<checkout>/../shared/corpus/ahap`.
  static var folder: URL {
    if let override = ProcessInfo.processInfo.environment["HAPTICCTL_CORPUS"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // #filePath is <checkout>/Scripts/benchmarks/Benchmarks/AHAPBenchmarks/AHAPBenchmarks.swift.
    var checkout = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { checkout.deleteLastPathComponent() }
    return checkout.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
  }

  /// Every `*.ahap` file in ``folder``, sorted by name; stops the run if there is none.
  static func files() -> [CorpusFile] {
    let path = folder.path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let files = names.filter { $0.hasSuffix(".ahap") }.sorted().compactMap { name in
      FileManager.default.contents(atPath: "\(path)/\(name)").map { CorpusFile(name: name, bytes: Array($0)) }
    }
    if files.isEmpty {
      fatalError("no *.ahap files in \(path); set HAPTICCTL_CORPUS to the AHAP corpus folder")
    }
    return files
  }

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
