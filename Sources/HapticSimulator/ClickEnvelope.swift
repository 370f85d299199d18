/// The felt envelope of a click, per channel: the peak |acceleration| of every millisecond from
/// the click's first driven step (docs/semantics.md §15.7, issue 34's click figures).
struct ClickEnvelope: SimulationTrace {
  /// Milliseconds kept after the first driven step.
  static let span = 120
  /// The felt windows compared between clicks, ms.
  static let windowMilliseconds = 5
  /// How many windows are compared.
  static let windowCount = 5

  private var starts: [Double?]
  private var peaks: [[Double]]

  init(channels: Int) {
    starts = Array(repeating: nil, count: channels)
    peaks = Array(repeating: Array(repeating: 0, count: Self.span), count: channels)
  }

  mutating func record(time: Double, channel: Int, drive: Double, acceleration: Double) {
    if starts[channel] == nil && drive != 0 { starts[channel] = time }
    guard let start = starts[channel] else { return }
    let millisecond = Int(((time - start) * 1000).rounded(.down))
    guard millisecond >= 0 && millisecond < Self.span else { return }
    peaks[channel][millisecond] = max(peaks[channel][millisecond], abs(acceleration))
  }

  /// How long channel `index`'s envelope stays at or above 10 % of its peak, ms: from the
  /// first millisecond there to the last (`nil` for a silent channel).
  func aboveTenth(_ index: Int) -> Double? {
    let envelope = peaks[index]
    guard let top = envelope.max(), top > 0,
      let first = envelope.firstIndex(where: { $0 >= 0.1 * top }),
      let last = envelope.lastIndex(where: { $0 >= 0.1 * top })
    else { return nil }
    return Double(last - first + 1)
  }

  /// The peak of each of the first ``windowCount`` windows of ``windowMilliseconds``, G,
  /// floored at the detection threshold (below it nothing is felt, so nothing differs).
  func windows(_ index: Int) -> [Double] {
    (0..<Self.windowCount).map { window in
      let slice = peaks[index][(window * Self.windowMilliseconds)..<((window + 1) * Self.windowMilliseconds)]
      return max(slice.max() ?? 0, ChannelResponseMap.detectionThreshold)
    }
  }
}
