import HapticCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The strings AHAP files repeat thousands of times (keys, event types, parameter IDs), handed
/// out as shared strings instead of a fresh allocation per occurrence, and recognised by number.
enum KnownStrings {
  /// Every known string: the AHAP keys first (index = ``AHAPKey`` raw value), then the raw
  /// values of the model's enums and the usual metadata keys.
  static let all: [String] = {
    var names = AHAPKey.allCases.map(\.name)
    names += HapticEventType.allCases.map(\.rawValue)
    names += EventParameterID.allCases.map(\.rawValue)
    names += DynamicParameterID.allCases.map(\.rawValue)
    names += ["Project", "Created", "Description"]
    return names
  }()

  private static let bucketCount = 256

  /// The lookup table, built once and never freed: reading it needs no reference counting.
  /// `bytes` holds every string's UTF-8; each bucket lists (index, start, length) triples.
  /// Unchecked: built once by a `static let` initialiser (run once, thread-safely) and only
  /// read afterwards.
  private struct Table: @unchecked Sendable {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let entries: UnsafeMutableBufferPointer<(index: Int, start: Int, count: Int)>
    /// `bucketStart[b] ..< bucketStart[b + 1]` are bucket b's entries.
    let bucketStart: UnsafeMutableBufferPointer<Int>
  }

  private static let table: Table = {
    var blob: [UInt8] = []
    var perBucket = Array(repeating: [(index: Int, start: Int, count: Int)](), count: bucketCount)
    for (index, name) in all.enumerated() {
      let utf8 = Array(name.utf8)
      perBucket[bucket(utf8.count, utf8[0], utf8[utf8.count - 1])].append((index, blob.count, utf8.count))
      blob += utf8
    }
    let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blob.count)
    _ = bytes.initialize(from: blob)
    let flat = perBucket.flatMap { $0 }
    let entries = UnsafeMutableBufferPointer<(index: Int, start: Int, count: Int)>.allocate(capacity: flat.count)
    _ = entries.initialize(from: flat)
    let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: bucketCount + 1)
    var running = 0
    for b in 0..<bucketCount {
      starts[b] = running
      running += perBucket[b].count
    }
    starts[bucketCount] = running
    return Table(bytes: bytes, entries: entries, bucketStart: starts)
  }()

  private static func bucket(_ count: Int, _ first: UInt8, _ last: UInt8) -> Int {
    (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & (bucketCount - 1)
  }

  /// The index in ``all`` of the string equal to `bytes`, if it is a known string.
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard bytes.count >= 4, let base = bytes.baseAddress, let blob = table.bytes.baseAddress else {
      return nil
    }
    let b = bucket(bytes.count, base[0], base[bytes.count - 1])
    for slot in table.bucketStart[b]..<table.bucketStart[b + 1] {
      let entry = table.entries[slot]
      if entry.count == bytes.count && memcmp(blob + entry.start, base, bytes.count) == 0 {
        return entry.index
      }
    }
    return nil
  }
}
