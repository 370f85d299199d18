/// The recognised members of one JSON object, looked up in place (no copy) by AHAP key.
///
/// For each key the last member wins, and a `null` member counts as absent (it also hides an
/// earlier member with the same key). Keys outside `known` are never returned.
struct Fields {
  private let object: JSONObject
  private let known: [AHAPKey]

  init(_ object: JSONObject, known: [AHAPKey]) {
    self.object = object
    self.known = known
  }

  /// The value for `key`, if present and not `null`.
  subscript(key: AHAPKey) -> JSONValue? {
    var position = object.count - 1
    while position >= 0 {
      if object.ahapKey(at: position) == key {
        let value = object.value(at: position)
        return value.isNull ? nil : value
      }
      position -= 1
    }
    return nil
  }

  /// The known keys present with a non-null value, in `known` order.
  var keys: [AHAPKey] { known.filter { self[$0] != nil } }

  /// True when no known key is present.
  var isEmpty: Bool { !known.contains { self[$0] != nil } }

  /// How many known keys are present.
  var count: Int { known.reduce(0) { $0 + (self[$1] != nil ? 1 : 0) } }
}
