import CSndFile

/// Audio as the renderer and the players use it: mono samples (−1…1) at a sample rate.
public struct AudioClip: Sendable, Hashable {
  /// Samples per second.
  public var sampleRate: Double
  /// The samples, the file's channels averaged.
  public var samples: [Float]
  /// How many channels the file had.
  public var channels: Int

  /// Creates a clip.
  public init(sampleRate: Double, samples: [Float], channels: Int = 1) {
    self.sampleRate = sampleRate
    self.samples = samples
    self.channels = channels
  }

  /// Seconds of audio.
  public var duration: Double { sampleRate > 0 ? Double(samples.count) / sampleRate : 0 }
}

/// Why an audio file could not be read or written: the file and libsndfile's reason.
public struct AudioFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// What went wrong.
  public var message: String

  /// Creates an error.
  public init(file: String, message: String) {
    self.file = file
    self.message = message
  }

  public var description: String { "\(file): \(message)" }
}

/// Reads and writes audio files through libsndfile (Debian's libsndfile1): WAV, CAF (Core
/// Audio Format, the format of Core Haptics tutorials' sounds), AIFF, FLAC and more, linear PCM
/// or float; no parser of our own.
public enum AudioFile {
  /// Formats ``write(_:to:format:)`` writes.
  public enum Format: Sendable {
    /// RIFF WAVE, 16-bit PCM.
    case wav
    /// Core Audio Format, 16-bit PCM.
    case caf

    var code: Int32 {
      switch self {
      case .wav: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
      case .caf: return Int32(SF_FORMAT_CAF | SF_FORMAT_PCM_16)
      }
    }
  }

  /// The longest file read, in frames (ten minutes at 48 kHz): a haptic pattern's sound
  /// should be short, and a bigger file is refused rather than loaded into memory.
  public static let maxFrames = 48_000 * 600

  /// Reads the file at `path` as a mono clip.
  ///
  /// - Throws: ``AudioFileError`` naming the file: missing, unreadable, not audio libsndfile
  ///   knows, empty, or longer than ``maxFrames``.
  public static func read(_ path: String) throws(AudioFileError) -> AudioClip {
    var info = SF_INFO()
    guard let file = sf_open(path, Int32(SFM_READ), &info) else {
      throw AudioFileError(file: path, message: "cannot read it as audio (\(String(cString: sf_strerror(nil))))")
    }
    defer { sf_close(file) }
    let channels = Int(info.channels)
    guard channels > 0, info.samplerate > 0 else {
      throw AudioFileError(file: path, message: "no channels or no sample rate")
    }
    guard info.frames <= Int64(maxFrames) else {
      throw AudioFileError(file: path, message: "\(info.frames) frames, over the \(maxFrames)-frame limit")
    }
    var mono = [Float]()
    mono.reserveCapacity(Int(info.frames))
    var buffer = [Float](repeating: 0, count: 4_096 * channels)
    while true {
      let read = buffer.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, 4_096) }
      guard read > 0 else { break }
      for frame in 0..<Int(read) {
        var sum: Float = 0
        for channel in 0..<channels { sum += buffer[frame * channels + channel] }
        mono.append(sum / Float(channels))
      }
    }
    guard !mono.isEmpty else { throw AudioFileError(file: path, message: "no audio in it") }
    return AudioClip(sampleRate: Double(info.samplerate), samples: mono, channels: channels)
  }

  /// Writes `clip` (mono) to `path` in `format`, replacing what is there.
  ///
  /// - Throws: ``AudioFileError`` naming the file when it cannot be created or written.
  public static func write(_ clip: AudioClip, to path: String, format: Format) throws(AudioFileError) {
    var info = SF_INFO()
    info.samplerate = Int32(clip.sampleRate.rounded())
    info.channels = 1
    info.format = format.code
    guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
      throw AudioFileError(file: path, message: "cannot create it (\(String(cString: sf_strerror(nil))))")
    }
    let written = clip.samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
    let closed = sf_close(file)
    guard written == sf_count_t(clip.samples.count), closed == 0 else {
      throw AudioFileError(file: path, message: "could not write every sample")
    }
  }
}
