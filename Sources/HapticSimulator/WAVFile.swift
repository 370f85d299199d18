/// RIFF/WAVE writing: 16-bit PCM into a byte buffer (what `simulate --format wav` streams to a
/// file or standard output). Audio files are read through libsndfile (`HapticAudio`'s `AudioFile`).
public enum WAVFile {
  /// A 16-bit PCM WAV file of `channels` interleaved channels (all the same length), samples
  /// clipped to −1…1.
  public static func encode(channels: [[Float]], sampleRate: Int) -> [UInt8] {
    let count = channels.map(\.count).max() ?? 0
    let channelCount = max(channels.count, 1)
    let dataSize = count * channelCount * 2
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44 + dataSize)
    func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
    func u16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
    bytes += Array("RIFF".utf8)
    u32(36 + dataSize)
    bytes += Array("WAVEfmt ".utf8)
    u32(16)
    u16(1)  // PCM
    u16(channelCount)
    u32(sampleRate)
    u32(sampleRate * channelCount * 2)
    u16(channelCount * 2)
    u16(16)
    bytes += Array("data".utf8)
    u32(dataSize)
    for index in 0..<count {
      for channel in 0..<channelCount {
        let value = channel < channels.count && index < channels[channel].count ? channels[channel][index] : 0
        let clipped = min(max(value, -1), 1)
        u16(Int(Int16((clipped * 32767).rounded())))
      }
    }
    return bytes
  }
}
