import Foundation
import Testing

@testable import HapticAudio

/// Audio files through libsndfile: WAV and CAF (the tutorials' format), errors naming the file.
@Suite struct AudioFileTests {
  static func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "hapticctl-audio-\(getpid())-\(name)"
  }

  /// 50 ms of a 440 Hz tone at 44.1 kHz.
  static let tone = AudioClip(
    sampleRate: 44_100, samples: (0..<2_205).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) })

  @Test("WAV and CAF written and read back: the same samples within 16-bit rounding", arguments: [AudioFile.Format.wav, .caf])
  func roundTrip(_ format: AudioFile.Format) throws {
    let path = Self.temporary(format == .wav ? "tone.wav" : "tone.caf")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try AudioFile.write(Self.tone, to: path, format: format)
    let clip = try AudioFile.read(path)
    #expect(clip.sampleRate == 44_100 && clip.channels == 1)
    #expect(clip.samples.count == Self.tone.samples.count)
    let worst = zip(clip.samples, Self.tone.samples).map { abs($0 - $1) }.max() ?? 1
    #expect(worst <= 1.0 / 32_767 + 1e-6, "worst \(worst)")
    #expect(abs(clip.duration - 0.05) < 1e-9)
    // The container is the one asked for (CAF files start with 'caff').
    let magic = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4), as: UTF8.self)
    #expect(magic == (format == .wav ? "RIFF" : "caff"))
  }

  @Test("A stereo file reads as the mean of its channels")
  func stereoToMono() throws {
    // A 16-bit stereo WAV written by hand: left +0.5, right −0.25 → mono +0.125.
    var bytes = Data("RIFF".utf8)
    func u32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(v).littleEndian) { Data($0) } }
    func u16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { Data($0) } }
    let frames = 100
    bytes += u32(36 + frames * 4) + Data("WAVEfmt ".utf8) + u32(16) + u16(1) + u16(2) + u32(8_000) + u32(32_000) + u16(4) + u16(16)
    bytes += Data("data".utf8) + u32(frames * 4)
    for _ in 0..<frames { bytes += u16(16_384) + u16(-8_192) }
    let path = Self.temporary("stereo.wav")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try bytes.write(to: URL(fileURLWithPath: path))
    let clip = try AudioFile.read(path)
    #expect(clip.channels == 2 && clip.samples.count == frames && clip.sampleRate == 8_000)
    #expect(clip.samples.allSatisfy { abs($0 - 0.125) < 1e-4 })
  }

  @Test("Missing, empty and non-audio files fail with the file named")
  func failures() throws {
    #expect(throws: AudioFileError.self) { try AudioFile.read("/nonexistent/click.caf") }
    do {
      _ = try AudioFile.read("/nonexistent/click.caf")
    } catch {
      #expect(error.file == "/nonexistent/click.caf")
      #expect(error.description.hasPrefix("/nonexistent/click.caf: cannot read it as audio"))
    }
    let garbage = Self.temporary("garbage.wav")
    defer { try? FileManager.default.removeItem(atPath: garbage) }
    try Data("this is not audio".utf8).write(to: URL(fileURLWithPath: garbage))
    #expect(throws: AudioFileError.self) { try AudioFile.read(garbage) }
    #expect(throws: AudioFileError.self) {
      try AudioFile.write(Self.tone, to: "/nonexistent/folder/out.caf", format: .caf)
    }
  }
}

/// The ALSA output on ALSA's `null` device (no sound card needed): it opens, takes clips and
/// cancels, paces itself on the host clock and closes; on a machine with a sound card the same
/// code plays on `default` (`hapticctl send`, `CHHapticEngine`).
@Suite struct ALSAOutputTests {
  @Test("The null device: schedule, cancel, pace, close")
  func nullDevice() throws {
    let output: ALSAOutput
    do {
      output = try ALSAOutput(device: "null")
    } catch {
      // Without alsa-lib's configuration (libasound2-data) there is no `null` device.
      Issue.record("ALSA's null device did not open: \(error)")
      return
    }
    #expect(output.latency >= ALSAOutput.bufferSeconds && output.latency < 0.5)
    let started = AudioClock.now()
    output.schedule([Float](repeating: 0.5, count: 4_800), after: output.latency, tag: 1)
    output.schedule([Float](repeating: 0.5, count: 4_800), after: output.latency + 0.05, tag: 2)
    output.cancel(tag: 2, after: 0)
    usleep(200_000)
    try output.close()
    // Paced by the host clock (the null device never blocks): closing took about real time.
    #expect(AudioClock.now() - started < 1)
  }
}
