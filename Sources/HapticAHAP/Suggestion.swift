/// "Did you mean": the known name closest to a misspelt one, when it is close enough to be the
/// typo (`HapticIntensty` → `HapticIntensity`).
enum Suggestion {
  /// The candidate within a few edits of `name` (a quarter of its length, at least 1, at most
  /// 3; case differences count half), the closest first; nil when none is that close.
  static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let limit = min(max(name.count / 4, 1), 3)
    var best: (candidate: String, distance: Double)?
    for candidate in candidates where candidate != name {
      let distance = Self.distance(Array(name.unicodeScalars), Array(candidate.unicodeScalars))
      if distance <= Double(limit), distance < best?.distance ?? .infinity { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// " (did you mean X?)" for the closest candidate, or "".
  static func hint(for name: String, among candidates: some Sequence<String>) -> String {
    closest(to: name, among: candidates).map { " (did you mean \($0)?)" } ?? ""
  }

  /// Levenshtein distance; a substitution that only changes case costs 0.5.
  private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
    var previous = (0...b.count).map(Double.init)
    for (i, x) in a.enumerated() {
      var current = [Double(i + 1)]
      current.reserveCapacity(b.count + 1)
      for (j, y) in b.enumerated() {
        let substitution: Double =
          x == y ? 0 : x.properties.lowercaseMapping == y.properties.lowercaseMapping ? 0.5 : 1
        current.append(min(previous[j] + substitution, previous[j + 1] + 1, current[j] + 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
