#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `realpath(3)`: the canonical absolute path with symbolic links resolved.
enum RealPath {
  /// The canonical path of `path`, or `nil` when it does not exist or cannot be resolved.
  static func resolve(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}
