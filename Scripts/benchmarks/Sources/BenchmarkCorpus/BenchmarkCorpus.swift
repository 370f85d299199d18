import Foundation

/// One AHAP file held in memory.
public struct CorpusFile: Sendable {
  /// The file name, used in diagnostics.
  public var name: String
  /// The file's bytes.
  public var bytes: [UInt8]
}

/// The AHAP corpus shared by the suites: every `*.ahap` in `shared/corpus/ahap` beside the
/// repository checkout, or in the folder named by `HAPTICCTL_CORPUS`. Load it outside the
/// measured blocks.
public enum Corpus {
  /// The corpus folder: `$HAPTICCTL_CORPUS`, else `<checkout>/../shared/corpus/ahap`.
  public static var folder: URL {
    if let override = ProcessInfo.processInfo.environment["HAPTICCTL_CORPUS"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // #filePath is <checkout>/Scripts/benchmarks/Sources/BenchmarkCorpus/BenchmarkCorpus.swift.
    var checkout = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { checkout.deleteLastPathComponent() }
    return checkout.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
  }

  /// Every `*.ahap` file in ``folder``, sorted by name; stops the run if there is none.
  public static func files() -> [CorpusFile] {
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

  /// Every `*.haptic` file under the shared `.haptic` corpus (`shared/corpus/haptic` beside the
  /// checkout, or `$HAPTICCTL_HAPTIC_CORPUS`), sorted by path; stops the run if there is none.
  public static func hapticFiles() -> [CorpusFile] {
    let folder: URL
    if let override = ProcessInfo.processInfo.environment["HAPTICCTL_HAPTIC_CORPUS"], !override.isEmpty {
      folder = URL(fileURLWithPath: override, isDirectory: true)
    } else {
      folder = self.folder.deletingLastPathComponent().appendingPathComponent("haptic")
    }
    let paths = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
      .filter { $0.hasSuffix(".haptic") }.sorted()
    let files = paths.compactMap { path in
      FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map { CorpusFile(name: path, bytes: Array($0)) }
    }
    if files.isEmpty { fatalError("no *.haptic files under \(folder.path); set HAPTICCTL_HAPTIC_CORPUS") }
    return files
  }
}
