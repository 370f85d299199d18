extension Array {
  /// The elements sorted by `key`, keeping the original order of elements with equal keys
  /// (the standard library's `sort` does not promise stability). Already-sorted input is
  /// returned as it is, without sorting.
  public func stableSorted(by key: (Element) -> Double) -> [Element] {
    if count < 2 { return self }
    var isSorted = true
    for i in 1..<count where key(self[i]) < key(self[i - 1]) {
      isSorted = false
      break
    }
    if isSorted { return self }
    let order = indices.sorted { a, b in
      let ka = key(self[a])
      let kb = key(self[b])
      return ka < kb || (ka == kb && a < b)
    }
    return order.map { self[$0] }
  }
}
