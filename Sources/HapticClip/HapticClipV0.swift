/// A clip in the older `.vij` layout (Lofelt Studio Desktop's format 0.2): `voices.envelopes`
/// (the first list amplitude, an optional second frequency) and `voices.transients` (two lists
/// in step: amplitude and frequency), with `metadata.duration`.
///
/// ``HapticClipReader`` reads it, checks Lofelt's v0 rules (``problems``) and plays it upgraded
/// to version 1 (``upgraded()``), exactly as Lofelt's SDK upgrades it (docs/semantics.md §17).
public struct HapticClipV0: Sendable, Hashable {
  /// One point of an envelope or of a transient list (`amplitude` is the value in either case).
  public struct Breakpoint: Sendable, Hashable {
    public var time: Double
    public var amplitude: Double

    /// Creates a point.
    public init(time: Double, amplitude: Double) {
      self.time = time
      self.amplitude = amplitude
    }
  }

  /// `metadata.editor` (the only metadata version 1 keeps).
  public var editor: String
  /// `metadata.duration`, seconds (0 when missing): the clip's length.
  public var duration: Double
  /// `voices.envelopes`: amplitude, then (when there are exactly two) frequency.
  public var envelopes: [[Breakpoint]]
  /// `voices.transients`: amplitudes and frequencies, point for point.
  public var transients: [[Breakpoint]]

  /// Creates a v0 clip.
  public init(editor: String = "", duration: Double, envelopes: [[Breakpoint]], transients: [[Breakpoint]] = []) {
    self.editor = editor
    self.duration = duration
    self.envelopes = envelopes
    self.transients = transients
  }

  /// What breaks Lofelt's v0 rules, as (JSON path, message) pairs, in file order: no envelope,
  /// an empty amplitude envelope, a value outside 0…1, a time going back, a point after
  /// `duration`, transients not in two lists of equal length with equal times.
  public var problems: [(path: String, message: String)] {
    var found: [(String, String)] = []
    if envelopes.isEmpty { found.append(("voices.envelopes", "empty: a clip needs an amplitude envelope")) }
    if let first = envelopes.first, first.isEmpty {
      found.append(("voices.envelopes[0]", "empty: a clip needs at least one amplitude breakpoint"))
    }
    for (list, envelope) in envelopes.enumerated() {
      var last = 0.0
      for (index, point) in envelope.enumerated() {
        let path = "voices.envelopes[\(list)][\(index)]"
        if !(0...1).contains(point.amplitude) { found.append(("\(path).amplitude", "\(point.amplitude) is out of range (0…1)")) }
        if point.time < last { found.append(("\(path).time", "\(point.time) s goes back in time (the point before is at \(last) s)")) }
        last = point.time
      }
      if last > duration {
        found.append(("voices.envelopes[\(list)]", "ends at \(last) s, after the clip's duration \(duration) s (metadata.duration)"))
      }
    }
    guard !transients.isEmpty else { return found }
    guard transients.count == 2 else {
      found.append(("voices.transients", "expected two lists (amplitudes and frequencies), found \(transients.count)"))
      return found
    }
    guard transients[0].count == transients[1].count else {
      found.append(("voices.transients", "the lists differ in length (\(transients[0].count) amplitudes, \(transients[1].count) frequencies)"))
      return found
    }
    for (index, (a, f)) in zip(transients[0], transients[1]).enumerated() {
      if a.time != f.time {
        found.append(("voices.transients[1][\(index)].time", "\(f.time) s does not match its amplitude's time \(a.time) s"))
      }
      for (list, point) in [(0, a), (1, f)] where !(0...1).contains(point.amplitude) {
        found.append(("voices.transients[\(list)][\(index)].amplitude", "\(point.amplitude) is out of range (0…1)"))
      }
    }
    return found
  }

  /// The clip as version 1, by Lofelt's upgrade: the amplitude envelope (extended to `duration`
  /// with its last value, or a single 0 at `duration` when empty), the second envelope as the
  /// frequency envelope, and each transient as the emphasis of the amplitude breakpoint at
  /// exactly its time. Transients with no such breakpoint are dropped (returned in `dropped`).
  public func upgraded() -> (clip: HapticClip, dropped: [Breakpoint]) {
    var amplitude = (envelopes.first ?? []).map { HapticClip.AmplitudeBreakpoint(time: $0.time, amplitude: $0.amplitude) }
    if let last = amplitude.last {
      if duration > last.time { amplitude.append(.init(time: duration, amplitude: last.amplitude)) }
    } else {
      amplitude.append(.init(time: duration, amplitude: 0))
    }
    let frequency = envelopes.count == 2 ? envelopes[1].map { HapticClip.FrequencyBreakpoint(time: $0.time, frequency: $0.amplitude) } : []
    var dropped: [Breakpoint] = []
    if transients.count == 2 && transients[0].count == transients[1].count {
      // Each transient waits for the first breakpoint at its exact time, and is used once.
      var waiting: [Double: [Int]] = [:]
      for (index, point) in transients[0].enumerated().reversed() { waiting[point.time, default: []].append(index) }
      var used = Set<Int>()
      for index in amplitude.indices {
        guard let transient = waiting[amplitude[index].time]?.popLast() else { continue }
        used.insert(transient)
        amplitude[index].emphasis = HapticClip.Emphasis(
          amplitude: transients[0][transient].amplitude, frequency: transients[1][transient].amplitude)
      }
      dropped = transients[0].indices.filter { !used.contains($0) }.map { transients[0][$0] }
    } else {
      dropped = transients.first ?? []
    }
    var metadata = HapticClip.Metadata()
    metadata.editor = editor
    return (HapticClip(metadata: metadata, amplitude: amplitude, frequency: frequency), dropped)
  }
}
