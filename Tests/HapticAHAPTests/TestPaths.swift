import Foundation

/// Locations of test data, found relative to this source file so tests run from any directory.
enum TestPaths {
  /// The package root (three levels above this file).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/corpus/ahap` next to the package: the real-world AHAP corpus.
  static let corpus: URL = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/ahap")

  /// Whether the corpus is there: the folder exists and holds `.ahap` files. False in a plain
  /// clone, which has no `../shared` folder beside the checkout; tests that need it are skipped.
  static var corpusIsPresent: Bool { !corpusFiles().isEmpty }

  /// The hand-written fixtures of this test target.
  static let fixtures: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// Every `.ahap` file in the corpus, sorted by name; empty when the folder is missing.
  static func corpusFiles() -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { $0.hasSuffix(".ahap") }.sorted().map { corpus.appendingPathComponent($0) }
  }

  /// A fixture by relative path, e.g. `good/audio.ahap`.
  static func fixture(_ name: String) -> String {
    fixtures.appendingPathComponent(name).path
  }
}
