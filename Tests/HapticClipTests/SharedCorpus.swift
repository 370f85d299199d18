import Foundation

/// Whether the shared corpus beside the checkout is there (this target does not depend on
/// HapticTestSupport, so it finds the folders itself, as ClipReaderTests does). A plain clone
/// has no `../shared` folder: the tests that need it are skipped then.
enum SharedCorpus {
  /// `../shared/corpus` beside the package checkout (four levels above this file).
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

  /// Whether `../shared/corpus/ahap` exists and holds `.ahap` files.
  static let ahapIsPresent: Bool = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("ahap").path)) ?? []
    return names.contains { $0.hasSuffix(".ahap") }
  }()

  /// Whether `../shared/corpus/haptic/lofelt-nicevibrations` (Lofelt's test files) is a folder.
  static let hapticIsPresent: Bool = {
    var isDirectory: ObjCBool = false
    let path = folder.appendingPathComponent("haptic/lofelt-nicevibrations").path
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }()
}
