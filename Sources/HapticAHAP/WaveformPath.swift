import HapticCore
import SystemPackage

/// Rules for `EventWaveformPath`: relative to the AHAP file's folder and never outside it.
public enum WaveformPath {
  /// Why `path` is unacceptable on its face (absolute, empty, or climbing out of the folder),
  /// or `nil` when it is acceptable. Used by the reader; needs no file system.
  public static func lexicalProblem(_ path: String) -> String? {
    if path.isEmpty { return "EventWaveformPath is empty" }
    if path.utf8.contains(0) { return "EventWaveformPath contains a NUL byte" }
    let filePath = FilePath(path)
    if filePath.isAbsolute {
      return "EventWaveformPath \"\(path)\" is absolute; it must be relative to the AHAP file's folder"
    }
    var depth = 0
    for component in filePath.components {
      switch component.kind {
      case .parentDirectory: depth -= 1
      case .currentDirectory: continue
      case .regular: depth += 1
      }
      if depth < 0 {
        return "EventWaveformPath \"\(path)\" leaves the AHAP file's folder"
      }
    }
    if depth == 0 { return "EventWaveformPath \"\(path)\" names the AHAP file's folder, not a file" }
    return nil
  }

  /// The file `path` names, resolved against the folder of `patternFile`, with symbolic links
  /// followed and the result checked to stay inside that folder.
  ///
  /// - Parameters:
  ///   - path: the `EventWaveformPath` as written.
  ///   - patternFile: the AHAP file it belongs to.
  /// - Returns: the resolved absolute path.
  /// - Throws: ``AHAPDiagnostic`` with `HapticErrorCode.pathEscapes` or
  ///   `HapticErrorCode.fileNotFound`.
  public static func resolve(_ path: String, relativeTo patternFile: String) throws(AHAPDiagnostic)
    -> String
  {
    if let problem = lexicalProblem(path) {
      throw AHAPDiagnostic(.error, .pathEscapes, path: "EventWaveformPath", message: problem)
    }
    var folder = FilePath(patternFile)
    folder.removeLastComponent()
    if folder.isEmpty { folder = FilePath(".") }
    guard let realFolder = RealPath.resolve(folder.string) else {
      throw AHAPDiagnostic(
        .error, .fileNotFound, path: "EventWaveformPath",
        message: "the folder of \(patternFile) cannot be resolved")
    }
    let candidate = FilePath(realFolder).pushing(FilePath(path)).string
    guard let real = RealPath.resolve(candidate) else {
      throw AHAPDiagnostic(
        .error, .fileNotFound, path: "EventWaveformPath",
        message: "the audio file \"\(path)\" was not found next to \(patternFile)")
    }
    let prefix = realFolder.hasSuffix("/") ? realFolder : realFolder + "/"
    guard real.hasPrefix(prefix) else {
      throw AHAPDiagnostic(
        .error, .pathEscapes, path: "EventWaveformPath",
        message: "the audio file \"\(path)\" resolves to \(real), outside the folder of \(patternFile)")
    }
    return real
  }
}
