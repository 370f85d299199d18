import Foundation

/// Where the engine's audio goes: clips scheduled a delay from now (each output keeps its own
/// clock), each tagged with the player that started it.
public protocol AudioOutput: AnyObject, Sendable {
  /// Samples per second of the clips ``schedule(_:at:tag:)`` takes.
  var sampleRate: Double { get }
  /// The least lead (seconds) a clip needs to be heard on time: the device's queue.
  var latency: Double { get }
  /// Plays `samples` so that the first is heard `delay` seconds from now; a negative delay
  /// plays the part still ahead.
  func schedule(_ samples: [Float], after delay: Double, tag: Int)
  /// Silences what `tag` scheduled from `delay` seconds from now on.
  func cancel(tag: Int, after delay: Double)
  /// Ends the output (a file sink writes its file).
  func close() throws(AudioFileError)
}

/// An ``AudioOutput`` into a WAV file on the host timeline, with the onset of every clip: for
/// tests and machines without a sound card (`hapticctl send --audio-out FILE`).
///
/// The sink's clock is the closure it is given (the engine's link clock in tests, the monotonic
/// clock in the CLI); the file starts at that clock's reading when the sink is made (``origin``),
/// and a clip scheduled at time `t` on it lands at sample `(t − origin) × sampleRate`.
/// ``close()`` writes the mix (clipped to ±1) and, beside it, `FILE.onsets.csv`
/// (`time_s,tag,samples`, one row per clip as scheduled, cut short by a cancel).
///
/// Unchecked: `clips` and `closed` are read and written only under `lock`; the rest are `let`s.
public final class AudioFileSink: AudioOutput, @unchecked Sendable {
  /// A clip as scheduled.
  public struct Onset: Sendable, Hashable {
    /// The sink's clock reading at its first sample.
    public var time: Double
    /// The player that scheduled it.
    public var tag: Int
    /// Samples that play (fewer after a cancel).
    public var samples: Int
  }

  public let sampleRate: Double
  /// A file has no queue: clips land where they are scheduled.
  public var latency: Double { 0 }
  /// The host time of the file's first sample.
  public let origin: Double
  /// The file written on close.
  public let path: String
  private let lock = NSLock()
  private var clips: [(onset: Onset, samples: [Float])] = []
  private var closed = false

  private let clock: @Sendable () -> Double

  /// A sink writing `path`, on `clock` (seconds), from now on.
  public init(path: String, sampleRate: Double = 48_000, clock: @escaping @Sendable () -> Double) {
    self.path = path
    self.clock = clock
    origin = clock()
    self.sampleRate = sampleRate
  }

  /// The clips so far.
  public var onsets: [Onset] { lock.withLock { clips.map(\.onset) } }

  public func schedule(_ samples: [Float], after delay: Double, tag: Int) {
    let time = clock() + delay
    guard !samples.isEmpty, time.isFinite else { return }
    lock.withLock {
      guard !closed else { return }
      clips.append((Onset(time: time, tag: tag, samples: samples.count), samples))
    }
  }

  public func cancel(tag: Int, after delay: Double) {
    let time = clock() + delay
    lock.withLock {
      for index in clips.indices where clips[index].onset.tag == tag {
        let keep = max(0, Int(((time - clips[index].onset.time) * sampleRate).rounded()))
        if keep < clips[index].onset.samples { clips[index].onset.samples = keep }
      }
    }
  }

  public func close() throws(AudioFileError) {
    let (clips, first) = lock.withLock { () -> ([(onset: Onset, samples: [Float])], Bool) in
      defer { closed = true }
      return (self.clips, !closed)
    }
    guard first else { return }
    var mix: [Float] = []
    for clip in clips where clip.onset.samples > 0 {
      let start = Int(((clip.onset.time - origin) * sampleRate).rounded())
      for index in 0..<clip.onset.samples where start + index >= 0 {
        let at = start + index
        if at >= mix.count { mix.append(contentsOf: repeatElement(0, count: at - mix.count + 1)) }
        mix[at] += clip.samples[index]
      }
    }
    if mix.isEmpty { mix = [0] }
    // Written beside the target and renamed into place: a failure leaves no half-written file.
    let temporary = path + ".tmp-\(getpid())"
    do {
      try AudioFile.write(AudioClip(sampleRate: sampleRate, samples: mix.map { min(max($0, -1), 1) }), to: temporary, format: .wav)
    } catch {
      throw AudioFileError(file: path, message: error.message)
    }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw AudioFileError(file: path, message: "cannot replace it")
    }
    var csv = "time_s,tag,samples\n"
    for clip in clips {
      csv += "\(String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), clip.onset.time)),\(clip.onset.tag),\(clip.onset.samples)\n"
    }
    do {
      try csv.write(toFile: path + ".onsets.csv", atomically: true, encoding: .utf8)
    } catch {
      throw AudioFileError(file: path + ".onsets.csv", message: "cannot write it")
    }
  }
}
