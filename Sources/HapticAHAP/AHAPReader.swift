import HapticCore
import SystemPackage

/// How the control-point times of `ParameterCurve` entries are to be read.
public enum ControlPointTimeConvention: String, Sendable, Hashable, CaseIterable {
  /// Times relative to the curve's own `Time` (Apple's documented convention; the default).
  case relative
  /// Times on the pattern's timeline, as Lofelt/Meta exports write them; converted on load.
  case absolute
}

/// Settings for ``AHAPReader``.
public struct AHAPReadOptions: Sendable, Hashable {
  /// Files larger than this many bytes are refused before being read (default 64 MiB).
  public var maxFileSize: Int
  /// The deepest JSON nesting accepted (default 512; AHAP needs 6).
  public var maxDepth: Int
  /// How curve control-point times are read (default ``ControlPointTimeConvention/relative``).
  public var controlPointTimes: ControlPointTimeConvention
  /// At most this many errors are listed per file (default 100, at least 1); a final error
  /// says how many more were found.
  public var maxErrors: Int

  /// Creates options; every argument has the documented default.
  public init(
    maxFileSize: Int = 64 << 20, maxDepth: Int = 512,
    controlPointTimes: ControlPointTimeConvention = .relative, maxErrors: Int = 100
  ) {
    self.maxFileSize = maxFileSize
    self.maxDepth = maxDepth
    self.controlPointTimes = controlPointTimes
    self.maxErrors = maxErrors
  }
}

/// Reads AHAP files with Apple's leniency and reports every repair it makes.
///
/// Missing entries take defaults, out-of-range values are clamped and unknown keys are ignored,
/// each reported as a warning; trailing commas are accepted and entries may come in any order
/// (they are sorted by time) without a warning. Anything that cannot be played as meant (wrong types, unknown event types,
/// negative or non-finite times, broken JSON) is an error naming the entry, e.g.
/// `Pattern[3].Event.Time`. docs/semantics.md lists every rule.
public struct AHAPReader: Sendable {
  /// The reader's settings.
  public var options: AHAPReadOptions

  /// Creates a reader.
  public init(options: AHAPReadOptions = AHAPReadOptions()) {
    self.options = options
  }

  /// Reads the AHAP file at `path`.
  ///
  /// The file's size is checked before it is read; files over ``AHAPReadOptions/maxFileSize``
  /// are refused unread.
  /// - Throws: ``AHAPError`` naming `path` when the file cannot be read or does not load.
  public func read(contentsOf path: String) throws(AHAPError) -> AHAPDocument {
    let bytes: [UInt8]
    do {
      bytes = try Self.loadFile(path, limit: options.maxFileSize)
    } catch {
      throw AHAPError(file: path, errors: [error])
    }
    return try read(bytes, file: path)
  }

  /// Reads an AHAP document from memory.
  ///
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - file: the name used in diagnostics, if any.
  /// - Throws: ``AHAPError`` with every error found.
  public func read(_ bytes: [UInt8], file: String? = nil) throws(AHAPError) -> AHAPDocument {
    if bytes.count > options.maxFileSize {
      throw AHAPError(file: file, errors: [Self.tooLarge(bytes.count, limit: options.maxFileSize)])
    }
    let document: JSONDocument
    do {
      document = try JSONParser.parse(bytes, maxDepth: options.maxDepth)
    } catch {
      let (line, column) = SourceLines(bytes).location(of: error.offset)
      let diagnostic = AHAPDiagnostic(
        .error, .invalidPatternData, path: "", message: "not valid JSON: \(error.message)",
        line: line, column: column)
      throw AHAPError(file: file, errors: [diagnostic])
    }
    let walker = AHAPWalker(bytes: bytes, options: options)
    let pattern = document.withRoot { walker.pattern(from: $0) }
    if !walker.errors.isEmpty {
      throw AHAPError(file: file, errors: walker.errors, warnings: walker.warnings)
    }
    return AHAPDocument(pattern: pattern, warnings: walker.warnings)
  }

  /// Reads AHAP text from a string (UTF-8).
  public func read(string: String, file: String? = nil) throws(AHAPError) -> AHAPDocument {
    try read(Array(string.utf8), file: file)
  }

  private static func tooLarge(_ size: Int, limit: Int) -> AHAPDiagnostic {
    AHAPDiagnostic(
      .error, .fileTooLarge, path: "",
      message: "the file is \(size) bytes, over the \(limit)-byte limit; it was not read")
  }

  /// Opens `path`, checks that it is a regular file within `limit` bytes, then reads it whole.
  package static func loadFile(_ path: String, limit: Int) throws(AHAPDiagnostic) -> [UInt8] {
    func failure(_ code: HapticErrorCode, _ message: String) -> AHAPDiagnostic {
      AHAPDiagnostic(.error, code, path: "", message: message)
    }
    // Check the kind of file before opening it: opening a FIFO for reading would block.
    do {
      let kind = try FilePath(path).stat().type
      guard kind == .regular else {
        let what = kind == .directory ? "a directory" : "not a regular file"
        throw failure(.fileUnreadable, "cannot read the file: it is \(what)")
      }
    } catch let diagnostic as AHAPDiagnostic {
      throw diagnostic
    } catch let errno as Errno {
      let code: HapticErrorCode = errno == .noSuchFileOrDirectory ? .fileNotFound : .fileUnreadable
      throw failure(code, "cannot open the file: \(errno)")
    } catch {
      throw failure(.fileUnreadable, "cannot open the file: \(error)")
    }
    let fd: FileDescriptor
    do {
      // Non-blocking, in case the path was swapped for a FIFO after the check above.
      fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking])
    } catch let errno as Errno {
      let code: HapticErrorCode = errno == .noSuchFileOrDirectory ? .fileNotFound : .fileUnreadable
      throw failure(code, "cannot open the file: \(errno)")
    } catch {
      throw failure(.fileUnreadable, "cannot open the file: \(error)")
    }
    defer { try? fd.close() }
    let info: Stat
    do {
      info = try fd.stat()
    } catch {
      throw failure(.fileUnreadable, "cannot read the file: \(error)")
    }
    guard info.type == .regular else {
      let kind = info.type == .directory ? "a directory" : "not a regular file"
      throw failure(.fileUnreadable, "cannot read the file: it is \(kind)")
    }
    let size = Int(info.size)
    if size > limit { throw tooLarge(size, limit: limit) }
    // Read up to limit + 1 bytes so a file that grows while being read is still refused.
    var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
    var filled = 0
    while filled < bytes.count {
      let count: Int
      do {
        let start = filled
        count = try bytes.withUnsafeMutableBytes { buffer in
          try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
      } catch {
        throw failure(.fileUnreadable, "cannot read the file: \(error)")
      }
      if count == 0 { break }
      filled += count
    }
    if filled > limit { throw tooLarge(filled, limit: limit) }
    bytes.removeSubrange(filled...)
    return bytes
  }
}

extension AHAPDiagnostic: Error {}
