import CALSA
import Foundation

/// The host's monotonic clock (`CLOCK_MONOTONIC`), for outputs and sinks that keep their own.
public enum AudioClock {
  /// Seconds.
  public static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
  }
}

/// An ``AudioOutput`` on an ALSA playback device (Debian libasound2): 48 kHz mono float, a
/// writer thread keeping about ``bufferSeconds`` queued, clips placed by host time with the
/// device's own delay taken into account (`snd_pcm_delay`), so a clip scheduled `d` seconds
/// ahead is heard then as long as `d` is at least ``latency``.
///
/// Unchecked: the clip list, the counters, `running` and `thread` are read and written only
/// under `lock`; the PCM handle is used by the writer thread alone until `close()` has joined it.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
  /// How much audio is kept queued in the device, seconds.
  public static let bufferSeconds = 0.040

  public let sampleRate: Double
  /// The device's queue: the least lead a clip needs to be heard on time, seconds.
  public let latency: Double
  /// The device name (`default`, `hw:0`, `null`, …).
  public let device: String
  private let pcm: OpaquePointer
  private let lock = NSLock()
  private var clips: [(frame: Int64, tag: Int, samples: [Float])] = []
  /// Frames handed to the device so far.
  private var written: Int64 = 0
  /// The stream frame heard at host time `anchor.host`.
  private var anchor = (frame: Int64(0), host: 0.0)
  private var running = true
  private var thread: Thread?

  /// Opens `device` for playback.
  ///
  /// - Throws: ``AudioFileError`` naming the device and ALSA's reason when it cannot be opened
  ///   or set up (no sound card, device busy).
  public init(device: String = "default", sampleRate: Double = 48_000) throws(AudioFileError) {
    calsa_silence_library_errors()  // failures are reported below, naming the device
    var handle: OpaquePointer?
    var status = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
    guard status >= 0, let handle else {
      throw AudioFileError(file: "ALSA device \(device)", message: "cannot open it (\(String(cString: snd_strerror(status))))")
    }
    status = snd_pcm_set_params(
      handle, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1,
      UInt32(Self.bufferSeconds * 1_000_000))
    guard status >= 0 else {
      snd_pcm_close(handle)
      throw AudioFileError(file: "ALSA device \(device)", message: "cannot set 48 kHz mono float (\(String(cString: snd_strerror(status))))")
    }
    var bufferFrames: snd_pcm_uframes_t = 0
    var periodFrames: snd_pcm_uframes_t = 0
    snd_pcm_get_params(handle, &bufferFrames, &periodFrames)
    pcm = handle
    self.device = device
    self.sampleRate = sampleRate
    latency = max(Double(bufferFrames) / sampleRate, Self.bufferSeconds)
    anchor = (0, Self.now() + latency)
    let period = max(Int(periodFrames), 240)
    let thread = Thread { [self] in run(period: period) }
    thread.name = "HapticAudio"
    self.thread = thread
    thread.start()
  }

  /// The host's monotonic clock, seconds.
  static func now() -> Double { AudioClock.now() }

  public func schedule(_ samples: [Float], after delay: Double, tag: Int) {
    let time = Self.now() + delay
    guard !samples.isEmpty, time.isFinite else { return }
    lock.withLock {
      let frame = anchor.frame + Int64(((time - anchor.host) * sampleRate).rounded())
      clips.append((frame, tag, samples))
    }
  }

  public func cancel(tag: Int, after delay: Double) {
    let time = Self.now() + delay
    lock.withLock {
      let frame = anchor.frame + Int64(((time - anchor.host) * sampleRate).rounded())
      for index in clips.indices where clips[index].tag == tag {
        let keep = max(0, Int(frame - clips[index].frame))
        if keep < clips[index].samples.count { clips[index].samples.removeLast(clips[index].samples.count - keep) }
      }
      clips.removeAll { $0.samples.isEmpty }
    }
  }

  public func close() throws(AudioFileError) {
    let thread = lock.withLock { () -> Thread? in
      running = false
      return self.thread
    }
    while let thread, !thread.isFinished { usleep(1_000) }
    snd_pcm_drain(pcm)
    snd_pcm_close(pcm)
  }

  /// The writer: mixes the clips a period at a time and keeps about ``bufferSeconds`` queued
  /// (paced by the host clock too, for devices that never block, such as `null`).
  private func run(period: Int) {
    let start = Self.now()
    var buffer = [Float](repeating: 0, count: period)
    let ahead = Int64(Self.bufferSeconds * sampleRate)
    while lock.withLock({ running }) {
      let due = Int64((Self.now() - start) * sampleRate) + ahead
      guard written < due else {
        usleep(UInt32(Double(period) / sampleRate * 500_000))
        continue
      }
      lock.withLock {
        for index in 0..<period { buffer[index] = 0 }
        for clip in clips {
          let from = max(written, clip.frame)
          let to = min(written + Int64(period), clip.frame + Int64(clip.samples.count))
          guard from < to else { continue }
          for frame in from..<to { buffer[Int(frame - written)] += clip.samples[Int(frame - clip.frame)] }
        }
        let end = written + Int64(period)
        clips.removeAll { $0.frame + Int64($0.samples.count) <= end }
      }
      for index in 0..<period { buffer[index] = min(max(buffer[index], -1), 1) }
      var result = buffer.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t(period)) }
      if result < 0 {
        snd_pcm_recover(pcm, Int32(result), 1)
        result = 0
      }
      var delay: snd_pcm_sframes_t = 0
      let delayKnown = snd_pcm_delay(pcm, &delay) >= 0
      let now = Self.now()
      lock.withLock {
        written += Int64(result)
        // The frame heard now: what was written minus what the device still holds.
        let heard = written - (delayKnown ? Int64(delay) : ahead)
        anchor = (heard, now)
      }
    }
  }
}
