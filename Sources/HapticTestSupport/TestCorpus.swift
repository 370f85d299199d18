public import Foundation

/// The public AHAP corpus the tests read in place: `../shared/corpus/ahap` beside the package
/// checkout (never edited).
///
/// A plain clone of the repository has no `../shared` folder: tests that need the corpus are
/// skipped then, with `.enabled(if: TestCorpus.isPresent, …)` (or `hapticIsPresent`).
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

  /// Whether the AHAP corpus is there: `ahapFolder` exists and holds `.ahap` files. False in a
  /// plain clone, which has no `../shared` folder beside the checkout.
  public static let isPresent: Bool = !ahapFiles.isEmpty

  /// Lofelt's Nice Vibrations test files (`.haptic`, `.vij` and the AHAP its converter made):
  /// `../shared/corpus/haptic/lofelt-nicevibrations` beside the package checkout (never edited).
  public static let hapticFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/corpus/haptic/lofelt-nicevibrations")

  /// Whether Lofelt's test files are there: `hapticFolder` is a folder. False in a plain clone.
  public static let hapticIsPresent: Bool = {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: hapticFolder.path, isDirectory: &isDirectory) && isDirectory.boolValue
  }()
}
