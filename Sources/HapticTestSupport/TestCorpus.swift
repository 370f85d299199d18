public import Foundation

/// The public AHAP corpus the tests read in place: `../shared/corpus/ahap` beside the package
/// checkout (never edited).
public enum TestCorpus {
  /// The corpus folder.
  public static let ahapFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")

  /// The names of the corpus's `.ahap` files, sorted (empty when the folder is missing).
  public static let ahapFiles: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: ahapFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".ahap") }.sorted()
  }()
}
