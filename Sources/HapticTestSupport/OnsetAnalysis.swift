import HapticAudio

/// Onsets of sound and drive, for tests of audio–haptic sync.
public enum OnsetAnalysis {
  /// The onsets in the audio file at `path` whose first sample is at time `origin` on some
  /// clock: the first sample above `threshold` after at least `gap` seconds below it.
  public static func audioOnsets(file path: String, origin: Double, threshold: Float = 0.05, gap: Double = 0.010) throws
    -> [Double]
  {
    let clip = try AudioFile.read(path)
    let quietNeeded = Int(gap * clip.sampleRate)
    var onsets: [Double] = []
    var quiet = quietNeeded
    for (index, sample) in clip.samples.enumerated() {
      if abs(sample) > threshold {
        if quiet >= quietNeeded { onsets.append(origin + Double(index) / clip.sampleRate) }
        quiet = 0
      } else {
        quiet = min(quiet + 1, quietNeeded)
      }
    }
    return onsets
  }

  /// The onsets of a drive given as its changes (time, level; a level holds until the next
  /// change): a non-zero level after at least `gap` seconds at 0 (or from the start).
  public static func driveOnsets(_ changes: [(time: Double, level: Int)], gap: Double = 0.020) -> [Double] {
    var onsets: [Double] = []
    var zeroSince: Double? = -.infinity
    for change in changes {
      if change.level == 0 {
        if zeroSince == nil { zeroSince = change.time }
      } else {
        if let since = zeroSince, change.time - since >= gap { onsets.append(change.time) }
        zeroSince = nil
      }
    }
    return onsets
  }
}
