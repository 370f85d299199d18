import Foundation

/// A ``PatternView`` as the answer's JSON, keys sorted like every answer (``BoardServer``).
///
/// The channels' arrays (three numbers per frame and channel: 210 000 for a 70 s pattern) are
/// written directly, their values already rounded to 1e-4; `JSONEncoder` took most of the
/// render's time on them. The rest goes through `JSONEncoder` as usual.
extension PatternView {
  /// `{"render": {…}}`.
  func answer() throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(channels.reduce(64) { $0 + 24 * $1.level.count })
    func key(_ name: String, first: Bool = false) {
      out += Array((first ? "\"" : ",\"").utf8) + Array(name.utf8) + Array("\":".utf8)
    }
    func encoded(_ value: some Encodable) throws { out += try BoardServer.encode(value) }
    out += Array("{\"render\":{".utf8)
    key("board", first: true)
    try encoded(board)
    key("channels")
    out.append(UInt8(ascii: "["))
    for (index, channel) in channels.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += Array("{\"channel\":\(channel.channel)".utf8)
      key("g")
      Self.write(channel.g, to: &out)
      key("hz")
      Self.write(channel.hz, to: &out)
      key("kind")
      try encoded(channel.kind)
      key("level")
      Self.write(channel.level, to: &out)
      key("rate")
      try encoded(channel.rate)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    let rest: [(String, any Encodable)] = [
      ("curves", curves), ("duration", duration), ("events", events), ("format", format), ("frame_period", framePeriod),
      ("source", source), ("threshold_g", thresholdG), ("warnings", warnings),
    ]
    for (name, value) in rest {
      key(name)
      try encoded(value)
    }
    out += Array("}}".utf8)
    return out
  }

  /// `values` (multiples of 1e-4, as ``rounded(_:)`` leaves them) as a JSON array: `0.1234`,
  /// `-0.5`, `170`.
  static func write(_ values: [Double], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      guard value.isFinite, abs(value) < 1e12 else {
        out += Array("0".utf8)
        continue
      }
      var scaled = Int((value * 1e4).rounded())
      if scaled < 0 {
        out.append(UInt8(ascii: "-"))
        scaled = -scaled
      }
      writeDigits(scaled / 10_000, to: &out)
      var fraction = scaled % 10_000
      guard fraction != 0 else { continue }
      out.append(UInt8(ascii: "."))
      var divisor = 1_000
      while fraction != 0 {
        out.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
        fraction %= divisor
        divisor /= 10
      }
    }
    out.append(UInt8(ascii: "]"))
  }

  /// `value` (≥ 0) in decimal.
  static func writeDigits(_ value: Int, to out: inout [UInt8]) {
    guard value >= 10 else { return out.append(UInt8(ascii: "0") + UInt8(value)) }
    writeDigits(value / 10, to: &out)
    out.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
