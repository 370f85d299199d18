import Foundation

/// Where a `CHHapticEngine()` plays: the `HAPTICCTL_*` environment variables over an optional
/// settings file (docs/semantics.md §16), so an app needs no environment to find its board.
///
/// The file is `$HAPTICCTL_CONFIG` (which must exist) or else `~/.config/hapticctl/engine.json`
/// (if it exists): one JSON object whose keys name the variables, e.g.
/// `{"port": "/dev/ttyACM0", "audio_device": "hw:1"}`. A variable set in the environment wins
/// over the file. Relative paths in `audio_out` and `boards_path` are taken from the file's folder.
enum EngineSettings {
  /// File key → environment variable.
  static let keys: [String: String] = [
    "port": "HAPTICCTL_PORT", "board": "HAPTICCTL_BOARD", "boards_path": "HAPTICCTL_BOARDS_PATH",
    "audio": "HAPTICCTL_AUDIO", "audio_out": "HAPTICCTL_AUDIO_OUT", "audio_device": "HAPTICCTL_AUDIO_DEVICE",
  ]

  /// `environment` with the settings file's entries added where the environment has none.
  /// - Throws: `invalidEngineParameter` naming the file and the entry when the file cannot be
  ///   read, is not a JSON object, has an unknown key or a value of the wrong kind.
  static func merged(_ environment: [String: String]) throws(CHHapticError) -> [String: String] {
    let path: String
    if let named = environment["HAPTICCTL_CONFIG"], !named.isEmpty {
      path = named
      guard FileManager.default.fileExists(atPath: path) else {
        throw CHHapticError(.invalidEngineParameter, "settings file \(path) (HAPTICCTL_CONFIG): no such file")
      }
    } else if let home = environment["HOME"], !home.isEmpty,
      FileManager.default.fileExists(atPath: home + "/.config/hapticctl/engine.json")
    {
      path = home + "/.config/hapticctl/engine.json"
    } else {
      return environment
    }
    var merged = environment
    for (variable, value) in try entries(of: path) where (environment[variable] ?? "").isEmpty {
      merged[variable] = value
    }
    return merged
  }

  /// The file's entries as environment variables.
  static func entries(of path: String) throws(CHHapticError) -> [String: String] {
    let fail = { (what: String) in CHHapticError(.invalidEngineParameter, "settings file \(path): \(what)") }
    guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot be read") }
    guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw fail("not a JSON object (expected e.g. {\"port\": \"/dev/ttyACM0\"})")
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let resolve = { (entry: String) in
      entry.hasPrefix("/") || entry.isEmpty ? entry : folder.appendingPathComponent(entry).standardizedFileURL.path
    }
    var variables: [String: String] = [:]
    for (key, value) in object.sorted(by: { $0.key < $1.key }) {
      guard let variable = keys[key] else {
        throw fail("unknown key '\(key)' (known: \(keys.keys.sorted().joined(separator: ", ")))")
      }
      switch (key, value) {
      case ("boards_path", let folders as [String]):
        variables[variable] = folders.map(resolve).joined(separator: ":")
      case ("boards_path", let folders as String):
        variables[variable] = folders.split(separator: ":").map { resolve(String($0)) }.joined(separator: ":")
      case ("audio", let setting as String):
        guard setting == "on" || setting == "off" else { throw fail("'audio' is \"\(setting)\"; expected \"on\" or \"off\"") }
        variables[variable] = setting
      case ("audio_out", let file as String):
        variables[variable] = resolve(file)
      case (_, let text as String):
        variables[variable] = text
      default:
        throw fail("'\(key)' must be a string\(key == "boards_path" ? " or an array of strings" : "")")
      }
    }
    return variables
  }
}
